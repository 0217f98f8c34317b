import BackoffPolicies
import Foundation

/// `--config FILE` (with `--config-route NAME`): a config file read as its project reads it, as the
/// policy's start. The file's first line that is neither blank nor a comment tells its kind: a
/// `[section]` is an AWS shared config (``AWSSharedConfig``).
extension ParsedOptions {
    /// Reads the config file at `path` as the policy's start.
    func readConfig(_ path: String) throws(CommandLineError) -> PolicyStart {
        let spec = spec(PolicyOptions.config.name)
        let data = try readConfigFile(path, for: spec, kind: "a config")
        guard let first = Self.firstContent(data) else {
            throw invalid(spec, path, detail: "the file holds nothing but blank lines and comments")
        }
        guard first.hasPrefix("[") || first.hasPrefix("\u{FEFF}[") else {
            throw invalid(
                spec, path,
                detail: "not a config file --config reads: it reads AWS shared config files (INI, a [default] or "
                    + "[profile NAME] section first) so far; a gRPC service config goes to --grpc-service-config")
        }
        let route = values[PolicyOptions.configRoute.name]
        let config: AWSSharedConfig
        do {
            config = try AWSSharedConfig(bytes: data, profile: route)
        } catch {
            if let route, error.isMissingProfile {
                throw invalid(self.spec(PolicyOptions.configRoute.name), route, detail: "\(error) (in \(path))")
            }
            throw invalid(spec, path, detail: error.description)
        }
        let origin = "--config \(path)"
        let profile = config.section ?? "no [default] section"
        var remarks = [
            "using profile '\(config.profile)' of \(origin) (\(profile)): retry_mode \(config.retryMode.rawValue), "
                + "max_attempts \(config.maxAttempts)"
                + (config.sources.isEmpty ? ", botocore's defaults" : "")
        ]
        if !config.otherKeys.isEmpty {
            remarks.append(
                "\(profile)'s keys \(config.otherKeys.joined(separator: ", ")) say nothing about retries; not modelled")
        }
        return PolicyStart(
            preset: config.preset.answering(failureKind), origin: "\(origin) (profile '\(config.profile)')",
            origins: config.sources[.maxAttempts].map { [PolicyOptions.maxAttempts.name: "\($0) of \(origin)"] } ?? [:],
            remarks: remarks)
    }

    /// `data`'s first line that is neither blank nor a comment, trimmed; `nil` if there is none.
    private static func firstContent(_ data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.trimmingCharacters(in: .whitespaces)
            if content.isEmpty || content.hasPrefix("#") || content.hasPrefix(";") { continue }
            return content
        }
        return nil
    }
}
