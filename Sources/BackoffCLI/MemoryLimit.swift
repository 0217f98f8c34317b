import Foundation
import RetrySimulation

/// The memory a command may plan to use: `--max-memory SIZE`, or by default half of the machine's
/// physical memory. A run whose estimate (``MemoryEstimate``, from its parameters, before anything
/// is allocated) exceeds it is a usage error that names the parameter that costs most, the estimate
/// and the limit; nothing runs and nothing is written.
struct MemoryLimit {
    let bytes: Double
    /// Where the limit comes from, for messages.
    let origin: String
    /// The options, to say which of the estimate's parameters the user did not give.
    private let options: ParsedOptions

    static let option = Option<Double?>.optional(
        "max-memory", "size",
        form: "a size of at least 1 B with a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), e.g. 8GiB",
        help: "Refuse a run whose estimated memory exceeds this (default: half of the physical memory).",
        parse: Parsers.form(MemoryLimit.size)
    ).grouped(.output)

    init(_ options: ParsedOptions) throws(CommandLineError) {
        self.options = options
        if let given = try options(Self.option) {
            bytes = given
            origin = "--max-memory \(options.givenText(Self.option.name) ?? "")"
        } else {
            bytes = Double(ProcessInfo.processInfo.physicalMemory) / 2
            origin = "half of the physical memory; --max-memory changes it"
        }
    }

    /// Throws when `estimate` exceeds the limit.
    func check(_ estimate: MemoryEstimate, command: String) throws(CommandLineError) {
        guard estimate.bytes > bytes, let largest = estimate.largest else { return }
        throw .usage(
            "'\(command)' would need about \(Self.text(estimate.bytes)) of memory, more than the limit of \(Self.text(bytes)) "
                + "(\(origin)); most of it for \(annotated(largest.parameter)): \(largest.what)",
            command: command)
    }

    /// An estimate's parameter (`--bucket 10ms`), saying where its value came from when the user
    /// did not give it (`--bucket 10ms (the default)`): a message never blames a value silently.
    private func annotated(_ parameter: String) -> String {
        guard parameter.hasPrefix("--"), let name = parameter.dropFirst(2).split(separator: " ").first,
            let spec = options.specs.first(where: { $0.name == name }), let origin = options.origin(of: spec)
        else { return parameter }
        return "\(parameter) (\(origin))"
    }

    /// A size with a unit: decimal (KB = 1000 B) or binary (KiB = 1024 B); `nil` otherwise.
    @Sendable static func size(_ text: String) -> Double? {
        let units: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024), ("TiB", 1024 * 1024 * 1024 * 1024),
            ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("B", 1),
        ]
        for (unit, scale) in units where text.hasSuffix(unit) {
            // At least one whole byte (0.5B is no limit one can hold), and finite.
            guard let number = ValueParser.number(String(text.dropLast(unit.count))), number * scale >= 1,
                (number * scale).isFinite
            else { return nil }
            return number * scale
        }
        return nil
    }

    /// Bytes in the largest binary unit that keeps the number at least 1, one decimal: `14.9 GiB`.
    static func text(_ bytes: Double) -> String {
        var value = bytes
        for unit in ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] {
            if value < 1024 || unit == "PiB" {
                return unit == "B" ? "\(Int(value)) B" : String(format: "%.1f %@", value, unit)
            }
            value /= 1024
        }
        return "\(bytes) B"
    }
}
