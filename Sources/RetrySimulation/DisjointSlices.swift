/// A buffer that several threads write at once, each to its own disjoint range of indices (one
/// chunk of runs per thread), so no two threads touch the same element. The buffer outlives the work.
struct DisjointSlices: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<Double>

    init(_ base: UnsafeMutableBufferPointer<Double>) { self.base = base }
}
