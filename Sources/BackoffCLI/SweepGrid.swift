import Stochastics

/// The points of a sweep: the cartesian product of its axes, first axis outermost (the order the
/// options were given), and each point's identity and seed.
///
/// A point's seed depends on its parameters, never on its position in the grid:
/// ```
/// seed(point) = streamSeed(root, fnv1a64(canonical parameters))
/// ```
/// where the canonical parameters are every option of the swept command except `--jitter`,
/// `--seed` and `--jobs`, each as `name=value` (its default when not given; durations in seconds,
/// numbers in shortest form) joined by newlines in the command's option order, and `root` is the
/// point's `--seed`. Inside the point the command runs with `--seed seed(point)`, so each jitter mode
/// draws the stream `streamSeed(seed(point), mode)`, exactly as `backoff <command> --seed seed(point)`
/// would: any row of a sweep can be rerun on its own with the seed it reports.
struct SweepGrid: Sendable {
    /// The swept command's name and its options.
    let command: String
    let specs: [OptionSpec]
    /// Every option given to the sweep for the command, in command-line order; single values are
    /// axes of one value.
    let axes: [SweepAxis]

    /// The number of points: the product of the axes' lengths.
    let pointCount: Int

    /// `name=value` of each option in spec order: for an axis, one text per value; otherwise the
    /// default's (or nothing). Computed once, so a point's parameters are assembled, not re-parsed.
    /// `inSeed`: the line enters the point's seed (every option but --jitter, --seed and --jobs);
    /// `inIdentity`: it enters the point's identity (every option but --jobs). Settled once.
    private let canonicalLines: [(axis: Int?, lines: [String], inSeed: Bool, inIdentity: Bool)]

    init(command: String, specs: [OptionSpec], axes: [SweepAxis]) {
        self.command = command
        self.specs = specs
        self.axes = axes
        pointCount = axes.reduce(1) { $0 * $1.values.count }
        canonicalLines = specs.map { spec in
            let (inSeed, inIdentity) = (!["jitter", "seed", "jobs"].contains(spec.name), spec.name != "jobs")
            if let axis = axes.firstIndex(where: { $0.spec.name == spec.name }) {
                return (axis, axes[axis].values.map { "\(spec.name)=\(SweepAxis.canonical($0, of: spec))" }, inSeed, inIdentity)
            }
            return (nil, spec.defaultValue.map { ["\(spec.name)=\(SweepAxis.canonical($0, of: spec))"] } ?? [], inSeed, inIdentity)
        }
    }

    /// The index of each axis's value at point `index`.
    private func valueIndices(at index: Int) -> [Int] {
        var remainder = index
        var indices = [Int](repeating: 0, count: axes.count)
        for (position, axis) in axes.enumerated().reversed() {
            indices[position] = remainder % axis.values.count
            remainder /= axis.values.count
        }
        return indices
    }

    /// The axes with more than one value: they get a column in the table.
    var variedAxes: [SweepAxis] { axes.filter { $0.values.count > 1 } }

    /// The value of every axis at point `index` (0-based, last axis fastest).
    func values(at index: Int) -> [String] {
        zip(axes, valueIndices(at: index)).map { $0.values[$1] }
    }

    /// The canonical values of the varied axes at `index`, as the table's first columns show them.
    func variedColumns(at index: Int) -> [String] {
        zip(axes, values(at: index)).filter { $0.0.values.count > 1 }.map { $0.0.canonical($0.1) }
    }

    /// The FNV-1a hash of `prefix` followed by `name=value` of the options at `index`, one per line
    /// (joined by newlines), with defaults, those of the seed or of the identity: hashed line by line, without
    /// building the text.
    private func canonicalHash(at index: Int, prefix: String = "", forIdentity: Bool) -> UInt64 {
        let indices = valueIndices(at: index)
        var hash = Self.fnv1a64(prefix)
        var first = true
        for (axis, lines, inSeed, inIdentity) in canonicalLines where forIdentity ? inIdentity : inSeed {
            guard let line = axis.map({ lines[indices[$0]] }) ?? lines.first else { continue }
            if !first { hash = Self.fnv1a64("\n", continuing: hash) }
            hash = Self.fnv1a64(line, continuing: hash)
            first = false
        }
        return hash
    }

    /// The seed the point runs with, or `nil` for a command without `--seed`.
    func seed(at index: Int) -> UInt64? {
        guard let seedSpec = specs.first(where: { $0.name == "seed" }) else { return nil }
        let given = zip(axes, values(at: index)).first { $0.0.spec.name == "seed" }?.1
        let root = UInt64(given ?? seedSpec.defaultValue ?? "0") ?? 0
        let hash = canonicalHash(at: index, forIdentity: false)
        return SeedDerivation.streamSeed(root: root, stream: hash)
    }

    /// A stable identity of the point (all its parameters, jitter and root seed included), as 16 hex
    /// digits: how a resumed sweep recognises the rows it already has.
    func identity(at index: Int) -> String {
        let hash = canonicalHash(at: index, prefix: command + "\n", forIdentity: true)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The arguments that run the swept command at point `index`.
    func arguments(at index: Int) -> [String] {
        var arguments: [String] = []
        for (axis, value) in zip(axes, values(at: index)) where axis.spec.name != "seed" {
            arguments += ["--\(axis.spec.name)", value]
        }
        if let seed = seed(at: index) { arguments += ["--seed", String(seed)] }
        if specs.contains(where: { $0.name == "jobs" }) { arguments += ["--jobs", "1"] }
        return arguments
    }

    /// A readable description of the point for messages: `multiplier=1.5, jitter=full`.
    func describe(_ index: Int) -> String {
        zip(axes, values(at: index)).filter { $0.0.values.count > 1 }
            .map { "\($0.0.spec.name)=\($0.1)" }.joined(separator: ", ")
    }

    /// The 64-bit FNV-1a hash of the UTF-8 bytes of `text` (Fowler, Noll & Vo), or, with
    /// `continuing`, of the bytes hashed so far followed by those of `text`.
    static func fnv1a64(_ text: String, continuing hash: UInt64 = 0xCBF2_9CE4_8422_2325) -> UInt64 {
        var hash = hash
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return hash
    }
}
