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

    /// `name=value` of each option in spec order, as UTF-8: for an axis, one text per value; otherwise
    /// the default's (or nothing). Computed once, so a point's parameters are assembled, not re-parsed.
    /// `inSeed`: the line enters the point's seed (every option but --jitter, --seed and --jobs);
    /// `inIdentity`: it enters the point's identity (every option but --jobs). Settled once.
    private let canonicalLines: [(axis: Int?, lines: [[UInt8]], inSeed: Bool, inIdentity: Bool)]
    /// Point `index` takes value `(index / strides[a]) % values.count` of axis `a` (the last axis fastest).
    private let strides: [Int]
    /// The `--seed` axis, and the root seed when no axis sets it (`nil`: the command has no `--seed`).
    private let seedAxis: Int?
    private let defaultRoot: UInt64?
    /// `--seed` and `--jobs`, by their declarations: a point runs with its own seed and one thread.
    static let (seed, jobs) = (RunOptions.seedOption.name, RunOptions.jobsOption.name)
    /// The options a point's seed leaves out: its jitter mode (each mode has its own stream), the
    /// root seed itself, the thread count (which changes nothing) and `simulate`'s replications
    /// (which change the standard errors alone: the row stays the run under the point's seed); its
    /// identity leaves out the thread count only.
    static let outsideSeed: Set<String> = [PolicyOptions.jitterName, seed, jobs, SimulateCommand.replications.name]
    /// The options that say how a table is printed (`--output`, `--format`, `--columns`,
    /// `--provenance`): in neither a point's seed nor its identity.
    static let printing = Set(TableOptions.specs.map(\.name))
    /// Whether the command takes `--jobs` (a point runs with `--jobs 1`).
    private let hasJobs: Bool

    /// - Throws: a usage error when the grid has more points than `Int` counts (axes of ten
    ///   million values each, under `--force`).
    init(command: String, specs: [OptionSpec], axes: [SweepAxis]) throws(CommandLineError) {
        self.command = command
        self.specs = specs
        self.axes = axes
        var count = 1
        for axis in axes {
            let (product, overflow) = count.multipliedReportingOverflow(by: axis.values.count)
            guard !overflow else {
                throw .usage(
                    "The grid has more than \(Int.max) points (the product of its axes' sizes): narrow the ranges",
                    command: command)
            }
            count = product
        }
        pointCount = count
        canonicalLines = specs.map { spec in
            // How a table is printed changes no point: --format's default must not move a seed.
            guard !Self.printing.contains(spec.name) else { return (nil, [], false, false) }
            let (inSeed, inIdentity) = (!Self.outsideSeed.contains(spec.name), spec.name != Self.jobs)
            func line(_ value: String) -> [UInt8] { Array("\(spec.name)=\(SweepAxis.canonical(value, of: spec))".utf8) }
            if let axis = axes.firstIndex(where: { $0.spec.name == spec.name }) {
                return (axis, axes[axis].values.map(line), inSeed, inIdentity)
            }
            return (nil, spec.defaultValue.map { [line($0)] } ?? [], inSeed, inIdentity)
        }
        var strides = [Int](repeating: 1, count: axes.count)
        for position in axes.indices.dropLast().reversed() {
            strides[position] = strides[position + 1] * axes[position + 1].values.count
        }
        self.strides = strides
        seedAxis = axes.firstIndex { $0.spec.name == Self.seed }
        defaultRoot = specs.first { $0.name == Self.seed }.map { UInt64($0.defaultValue ?? "0") ?? 0 }
        hasJobs = specs.contains { $0.name == Self.jobs }
    }

    /// The index of axis `axis`'s value at point `index`.
    private func valueIndex(_ axis: Int, at index: Int) -> Int { (index / strides[axis]) % axes[axis].values.count }

    /// The axes with more than one value: they get a column in the table.
    var variedAxes: [SweepAxis] { axes.filter { $0.values.count > 1 } }

    /// The value of every axis at point `index` (0-based, last axis fastest).
    func values(at index: Int) -> [String] {
        axes.indices.map { axes[$0].values[valueIndex($0, at: index)] }
    }

    /// The canonical values of the varied axes at `index`, as the table's first columns show them.
    func variedColumns(at index: Int) -> [String] {
        axes.indices.filter { axes[$0].values.count > 1 }.map {
            axes[$0].canonical(axes[$0].values[valueIndex($0, at: index)])
        }
    }

    /// The FNV-1a hash of `prefix` followed by `name=value` of the options at `index`, one per line
    /// (joined by newlines), with defaults, those of the seed or of the identity: hashed line by line, without
    /// building the text.
    private func canonicalHash(at index: Int, prefix: String = "", forIdentity: Bool) -> UInt64 {
        var hash = Self.fnv1a64(prefix)
        var first = true
        for (axis, lines, inSeed, inIdentity) in canonicalLines where forIdentity ? inIdentity : inSeed {
            guard !lines.isEmpty else { continue }
            if !first { hash = Self.fnv1a64(byte: UInt8(ascii: "\n"), continuing: hash) }
            hash = Self.fnv1a64(lines[axis.map { valueIndex($0, at: index) } ?? 0], continuing: hash)
            first = false
        }
        return hash
    }

    /// The seed the point runs with, or `nil` for a command without `--seed`.
    func seed(at index: Int) -> UInt64? {
        guard let defaultRoot else { return nil }
        let root = seedAxis.map { UInt64(axes[$0].values[valueIndex($0, at: index)]) ?? 0 } ?? defaultRoot
        return SeedDerivation.streamSeed(root: root, stream: canonicalHash(at: index, forIdentity: false))
    }

    /// The point whose options differ from point `index`'s in the root seed alone, the `--seed`
    /// axis at its first value (`index` itself there), or `nil` without a `--seed` axis.
    func pointDifferingInSeedOnly(from index: Int) -> Int? {
        guard let seedAxis else { return nil }
        return index - valueIndex(seedAxis, at: index) * strides[seedAxis]
    }

    /// A stable identity of the point (all its parameters, jitter and root seed included), as 16 hex
    /// digits: how a resumed sweep recognises the rows it already has.
    func identity(at index: Int) -> String {
        let hash = canonicalHash(at: index, prefix: command + "\n", forIdentity: true)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The options that run the swept command at point `index`, in the order the sweep was given
    /// them: each axis's value (the seed replaced by the point's own), and `--jobs 1`.
    func options(at index: Int) -> [(name: String, value: String)] {
        var options: [(name: String, value: String)] = []
        options.reserveCapacity(axes.count + 2)
        for (position, axis) in axes.enumerated() where position != seedAxis {
            options.append((axis.spec.name, axis.values[valueIndex(position, at: index)]))
        }
        if let seed = seed(at: index) { options.append((Self.seed, String(seed))) }
        if hasJobs { options.append((Self.jobs, "1")) }
        return options
    }

    /// A readable description of the point for messages: `multiplier=1.5, jitter=full`.
    func describe(_ index: Int) -> String {
        zip(axes, values(at: index)).filter { $0.0.values.count > 1 }
            .map { "\($0.0.spec.name)=\($0.1)" }.joined(separator: ", ")
    }

    /// The 64-bit FNV-1a hash of the UTF-8 bytes of `text` (Fowler, Noll & Vo), or, with
    /// `continuing`, of the bytes hashed so far followed by those of `text`.
    /// The bytes are read in place (a sweep hashes each option's line twice per point).
    static func fnv1a64(_ text: String, continuing hash: UInt64 = fnvOffsetBasis) -> UInt64 {
        var text = text
        return text.withUTF8 { fnv1a64($0, continuing: hash) }
    }

    /// The same for `bytes`.
    static func fnv1a64(_ bytes: some Sequence<UInt8>, continuing hash: UInt64 = fnvOffsetBasis) -> UInt64 {
        bytes.reduce(hash) { fnv1a64(byte: $1, continuing: $0) }
    }

    /// One step of FNV-1a: `byte` hashed after the bytes hashed so far.
    static func fnv1a64(byte: UInt8, continuing hash: UInt64) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// FNV-1a's 64-bit offset basis, the hash of no bytes.
    static let fnvOffsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
}
