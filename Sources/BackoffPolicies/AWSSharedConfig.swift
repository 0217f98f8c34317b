/// A profile of an AWS shared config file (`~/.aws/config`), read as botocore reads it, as the
/// preset of its retry mode: `retry_mode` (`standard`, the default; `adaptive`; `legacy`) and
/// `max_attempts` (every attempt, the first included; 3 in the standard and adaptive modes and 5
/// in the legacy mode when the profile does not set it).
///
/// ```
/// [default]                    # the profile used when none is asked for
/// retry_mode = standard
///
/// [profile batch]              # the profile "batch"
/// retry_mode = adaptive
/// max_attempts = 10
/// ```
///
/// The file is an INI file as Python's `configparser` reads it; its profiles are
/// botocore's (`botocore.configloader.build_profile_map`): `[default]` and `[profile NAME]` (NAME
/// split as a shell splits it, so `[profile "my name"]` is `my name`); a profile given twice takes
/// its last section; other sections are not profiles. Asked for no profile, the reader takes
/// `default`, or botocore's defaults when the file has none; a profile asked for by name must
/// exist. Environment variables (`AWS_PROFILE`, `AWS_RETRY_MODE`, `AWS_MAX_ATTEMPTS`) are not read:
/// the file alone decides, so the same file gives the same answer everywhere.
///
/// Every file and value botocore refuses is refused here, naming the line, the key and the form it
/// expects; `scripts/conformance` checks this against botocore's own loader, file by file.
public struct AWSSharedConfig: Sendable {
    /// botocore's retry modes.
    public enum RetryMode: String, Hashable, Sendable, CaseIterable {
        case standard, adaptive, legacy
    }

    /// The profile read, and the section it came from (`[profile batch]`; `nil` when the file has
    /// no `[default]` and none was asked for).
    public let profile: String
    public let section: String?
    /// The profile's retry mode and its attempts, the first included.
    public let retryMode: RetryMode
    public let maxAttempts: Int
    /// The retry mode's preset with the profile's attempts.
    public let preset: Preset
    /// Where each setting's value comes from (`[profile batch] max_attempts, line 7`); a setting
    /// the profile leaves out is botocore's default, and has no entry.
    public let sources: [Setting: String]
    /// The profile's other keys, which say nothing about retries (`region`, `output`): listed so
    /// that nothing is dropped unsaid, as a message shows them (control characters escaped).
    public let otherKeys: [String]

    /// A setting of the profile that the preset takes.
    public enum Setting: Hashable, Sendable, CaseIterable {
        case retryMode, maxAttempts
    }

    /// A file or value botocore refuses, or one the model cannot take: `description` says which and
    /// the form expected.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        /// True when the file is read but has no profile by the name asked for (the fault is the
        /// name, not the file).
        public let isMissingProfile: Bool

        init(_ description: String, missingProfile: Bool = false) {
            (self.description, isMissingProfile) = (description, missingProfile)
        }
    }

    /// The most attempts the model takes (botocore takes any count).
    public static let attemptLimit = 1_000_000_000

    /// Reads the shared config `bytes` (UTF-8), for the profile called `profile`, or without one
    /// for `default`.
    /// - Throws: ``Invalid``, naming the line and key at fault, or the profiles there are.
    public init(bytes: some Collection<UInt8>, profile: String?) throws(Invalid) {
        let file: INIFile
        do {
            file = try INIFile(bytes: bytes)
        } catch {
            throw Invalid("not an INI file as botocore reads one: \(error.description)")
        }
        try self.init(file, profile: profile)
    }

    /// The names of the profiles in `bytes`, in the order botocore finds them; `nil` for a file
    /// botocore cannot read.
    public static func profiles(in bytes: some Collection<UInt8>) -> [String]? {
        guard let file = try? INIFile(bytes: bytes), (try? checkNestedValues(file)) != nil else { return nil }
        return profileSections(file).map(\.name)
    }

    private init(_ file: INIFile, profile asked: String?) throws(Invalid) {
        try Self.checkNestedValues(file)
        let profiles = Self.profileSections(file)
        let name = asked ?? "default"
        let found = profiles.last { $0.name == name }?.section
        if asked != nil, found == nil {
            var seen: Set<String> = []
            let names = profiles.map(\.name).filter { seen.insert($0).inserted }.map {
                "'\(INIFile.shown($0.unicodeScalars))'"
            }
            throw Invalid(
                "no profile '\(INIFile.shown(name.unicodeScalars))' in the file; "
                    + (names.isEmpty
                        ? "it has none (a profile is a [default] or [profile NAME] section)"
                        : "its profiles: \(names.joined(separator: ", "))"),
                missingProfile: true)
        }
        profile = name
        section = found.map { "[\(INIFile.shown($0.name.unicodeScalars))]" }

        var sources: [Setting: String] = [:]
        func place(_ entry: INIFile.Entry, _ key: String) -> String {
            let owner = found.flatMap { $0.entry(key) } != nil ? found!.name : "DEFAULT"
            return "[\(INIFile.shown(owner.unicodeScalars))] \(key), line \(entry.line)"
        }
        var mode = RetryMode.standard
        if let found, let entry = file.entry("retry_mode", in: found) {
            let at = place(entry, "retry_mode")
            guard let given = RetryMode(rawValue: entry.value) else {
                throw Invalid(
                    "\(at): expected standard, adaptive or legacy (lowercase, as botocore takes them), got '\(INIFile.shown(entry.value.unicodeScalars))'"
                )
            }
            mode = given
            sources[.retryMode] = at
        }
        if let found, let entry = file.entry("defaults_mode", in: found) {
            let modes = ["legacy", "auto", "standard", "in-region", "cross-region", "mobile"]
            guard modes.contains(entry.value.lowercased()) else {
                throw Invalid(
                    "\(place(entry, "defaults_mode")): expected one of \(modes.joined(separator: ", ")), "
                        + "got '\(INIFile.shown(entry.value.unicodeScalars))'")
            }
        }
        var attempts = mode == .legacy ? 5 : 3
        if let found, let entry = file.entry("max_attempts", in: found) {
            let at = place(entry, "max_attempts")
            let form = "an integer from 1 to \(Self.attemptLimit), every attempt counted, the first included"
            guard let count = Self.pythonInteger(entry.value) else {
                throw Invalid("\(at): expected \(form), got '\(INIFile.shown(entry.value.unicodeScalars))'")
            }
            guard count >= 1 else {
                throw Invalid("\(at): expected \(form), got \(count) (botocore needs at least 1)")
            }
            guard count <= Self.attemptLimit else {
                throw Invalid("\(at): expected \(form), got \(count), more than the model takes")
            }
            attempts = Int(count)
            sources[.maxAttempts] = at
        }
        retryMode = mode
        maxAttempts = attempts
        preset = Preset.botocore(mode, maxAttempts: attempts)
        self.sources = sources
        let read: Set = ["retry_mode", "max_attempts"]
        otherKeys =
            found.map { file.keys(of: $0).filter { !read.contains($0) }.map { INIFile.shown($0.unicodeScalars) } } ?? []
    }

    /// botocore's profiles, in the file's order: `[default]`, and `[profile NAME]` with NAME split
    /// as `shlex.split` splits it into exactly two words, the first starting with `profile` (so
    /// `[profilex a]` is profile `a`, as botocore has it). A name may come more than once.
    private static func profileSections(_ file: INIFile) -> [(name: String, section: INIFile.Section)] {
        file.sections.compactMap { section in
            if section.name == "default" { return ("default", section) }
            guard section.name.hasPrefix("profile"), let words = ShellWords.split(section.name), words.count == 2 else {
                return nil
            }
            return (words[1], section)
        }
    }

    /// botocore reads a value that starts on the next line as a block of `key = value` lines, and
    /// refuses the whole file when a line of such a block has no `=`.
    private static func checkNestedValues(_ file: INIFile) throws(Invalid) {
        for section in file.sections {
            for key in file.keys(of: section) {
                let entry = file.entry(key, in: section)!
                guard entry.value.hasPrefix("\n") else { continue }
                for line in INIFile.pythonLines(entry.value) where !INIFile.strip(line).isEmpty {
                    guard line.contains("=") else {
                        throw Invalid(
                            "line \(entry.line): '\(INIFile.shown(key.unicodeScalars))' starts a block of 'key = value' lines, and '\(INIFile.shown(line))' is not one"
                        )
                    }
                }
            }
        }
    }

    /// `text` as Python's `int()` reads it: whitespace around, an optional sign, decimal digits
    /// (any script's) with single underscores between them; `nil` for anything else. A value beyond
    /// Int64 is Int64's largest or smallest.
    static func pythonInteger(_ text: String) -> Int64? {
        var scalars = INIFile.strip(text.unicodeScalars)[...]
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        guard let first = scalars.first, first != "_", scalars.last != "_" else { return nil }
        var value: Int64 = 0
        var previous: Unicode.Scalar = "0"
        for scalar in scalars {
            defer { previous = scalar }
            if scalar == "_" {
                guard previous != "_" else { return nil }
                continue
            }
            guard scalar.properties.numericType == .decimal, let digit = scalar.properties.numericValue else {
                return nil
            }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(digit))
            value = o1 || o2 ? .max : sum
        }
        return negative ? (value == .max ? .min : -value) : value
    }
}
