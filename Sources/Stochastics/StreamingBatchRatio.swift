/// ``BatchRatio`` for a stream of units whose count is not known in advance (the calls of a run
/// that goes on until its arrivals end): units in the order they come, in 32 to 64 contiguous
/// batches of equal size, in constant memory.
///
/// The batches start one unit each. When 64 are full, neighbours merge into 32 of twice the size,
/// and filling goes on: at every moment each batch but the last holds the same number of units.
/// Merging is exact (totals add), so the same units in the same order give the same bytes. A
/// unit costs three additions and a comparison (inlined into the caller's loop); the arrays are
/// touched once a batch.
public struct StreamingBatchRatio: Hashable, Sendable {
    /// The most batches before neighbours merge.
    @usableFromInline static let maximumBatches = 64

    /// The closed batches' totals.
    @usableFromInline var x: [Double] = []
    @usableFromInline var y: [Double] = []
    /// Units a batch holds, and the open batch's units and totals.
    @usableFromInline var batchSize = 1
    @usableFromInline var filled = 0
    @usableFromInline var openX = 0.0, openY = 0.0

    public init() {}

    /// Adds one unit of `numerator` over `denominator` (1 for a plain mean).
    @inlinable
    public mutating func add(numerator: Double, denominator: Double = 1) {
        openX += denominator
        openY += numerator
        filled += 1
        if filled == batchSize { close() }
    }

    /// The open batch is full: it joins the closed ones, and at 64 neighbours merge.
    @usableFromInline
    mutating func close() {
        x.append(openX)
        y.append(openY)
        (openX, openY, filled) = (0, 0, 0)
        guard x.count == Self.maximumBatches else { return }
        for b in 0..<(x.count / 2) {
            x[b] = x[2 * b] + x[2 * b + 1]
            y[b] = y[2 * b] + y[2 * b + 1]
        }
        x.removeLast(x.count / 2)
        y.removeLast(y.count / 2)
        batchSize *= 2
    }

    /// The batches so far, the open one included if it holds a unit.
    public var batches: Int { x.count + (filled > 0 ? 1 : 0) }

    /// The standard error of ΣY / ΣX from the batches (``BatchRatio``'s formula); NaN below 32
    /// batches (fewer than 32 units: too few to say).
    public var standardError: Double {
        guard batches >= Self.maximumBatches / 2 else { return .nan }
        return filled > 0
            ? BatchRatio.standardError(x: x + [openX], y: y + [openY]) : BatchRatio.standardError(x: x, y: y)
    }
}
