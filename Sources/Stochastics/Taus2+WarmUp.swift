extension Taus2 {
    /// GSL's six discarded steps after seeding, as one jump: each component's step is linear over
    /// GF(2) (masks, shifts and exclusive ors of its own 32 bits), so six steps are a fixed 32 × 32
    /// bit matrix, applied as four lookups, one per byte, in tables of that byte's image.
    ///
    /// Three components × four bytes × 256 words: 12 KiB, built once from the steps themselves (so
    /// the jump is the six steps by construction, and tested against GSL's seeding). A seed costs
    /// about 66 instructions instead of the stepped warm-up's 156, which matters where every client
    /// seeds its own stream (the herd: 23 instructions an attempt fewer).
    @usableFromInline
    package struct WarmUp: @unchecked Sendable {
        /// The tables: component c's byte b at `tables[1024 c + 256 b ..< 1024 c + 256 (b + 1)]`.
        /// Allocated once and never freed (``sixSteps`` lives as long as the program).
        @usableFromInline let tables: UnsafePointer<UInt32>

        /// The jump of GSL's warm-up.
        @usableFromInline package static let sixSteps = WarmUp(steps: 6)

        init(steps: Int) {
            let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: 3 * 1024)
            for component in 0..<3 {
                for byte in 0..<4 {
                    for value in 0..<256 {
                        // The state with only this component's byte set, stepped: the others stay 0.
                        var state = Taus2(s1: 0, s2: 0, s3: 0)
                        let bits = UInt(value) << (8 * byte)
                        switch component {
                        case 0: state.s1 = bits
                        case 1: state.s2 = bits
                        default: state.s3 = bits
                        }
                        for _ in 0..<steps { _ = state.next() }
                        let image = component == 0 ? state.s1 : component == 1 ? state.s2 : state.s3
                        tables[1024 * component + 256 * byte + value] = UInt32(image)
                    }
                }
            }
            self.tables = UnsafePointer(tables)
        }

        /// Component `component`'s 32-bit `state` after the steps.
        @inlinable @inline(__always)
        package func jump(_ state: UInt, component: Int) -> UInt {
            let table = tables + 1024 * component
            let image =
                table[Int(state & 0xFF)] ^ table[256 + Int((state >> 8) & 0xFF)]
                ^ table[512 + Int((state >> 16) & 0xFF)] ^ table[768 + Int((state >> 24) & 0xFF)]
            return UInt(image)
        }
    }
}
