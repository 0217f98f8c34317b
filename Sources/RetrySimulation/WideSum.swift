/// A sum of unsigned 64-bit terms that may outgrow 64 bits: the low word, and the carries past it.
///
/// Two words, not `UInt128`, whose 16-byte alignment made `ScenarioCounters`' array of total waits
/// copy once per run (8 MB a mode). Integer addition, so sums merged in any order agree to the bit.
struct WideSum {
    private(set) var low: UInt64 = 0
    private(set) var carries: UInt64 = 0

    /// Adds `high` × 2^64 + `low`.
    @inline(__always)
    mutating func add(low term: UInt64, high: UInt64 = 0) {
        let (sum, wrapped) = low.addingReportingOverflow(term)
        low = sum
        carries &+= high &+ (wrapped ? 1 : 0)
    }

    /// Adds a square, x², exactly.
    @inline(__always)
    mutating func addSquare(of x: UInt64) {
        let (high, low) = x.multipliedFullWidth(by: x)
        add(low: low, high: high)
    }

    /// Adds every term of `other`.
    mutating func add(_ other: WideSum) { add(low: other.low, high: other.carries) }

    /// The sum, rounded to a double.
    var value: Double { Double(carries) * 0x1p64 + Double(low) }
}
