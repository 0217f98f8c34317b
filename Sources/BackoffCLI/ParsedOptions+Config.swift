import BackoffPolicies
import ConfigFiles
import Foundation

/// `--config FILE` (with `--config-route NAME`): a config file read as its project reads it, as the
/// policy's start. The file's first line that is neither blank nor a comment tells its kind: a
/// `[section]` is an AWS shared config (``AWSSharedConfig``); anything else is read as YAML (or
/// JSON), and an Envoy configuration's route is read as Envoy's router reads it (``EnvoyRoute``).
extension ParsedOptions {
    /// Reads the config file at `path` as the policy's start.
    func readConfig(_ path: String) throws(CommandLineError) -> PolicyStart {
        let spec = spec(PolicyOptions.config.name)
        let data = try readConfigFile(path, for: spec, kind: "a config")
        guard let first = Self.firstContent(data) else {
            throw invalid(spec, path, detail: "the file holds nothing but blank lines and comments")
        }
        let route = values[PolicyOptions.configRoute.name]
        guard first.hasPrefix("[") || first.hasPrefix("\u{FEFF}[") else {
            return try readEnvoyConfig(data, path: path, route: route)
        }
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

    /// An Envoy configuration's route (YAML or JSON) as the policy's start.
    private func readEnvoyConfig(_ data: Data, path: String, route: String?) throws(CommandLineError) -> PolicyStart {
        let spec = spec(PolicyOptions.config.name)
        let kinds =
            "--config reads AWS shared config files (INI) and Envoy configurations (YAML or JSON: a bootstrap, a "
            + "RouteConfiguration, a virtual host or a route); a gRPC service config goes to --grpc-service-config"
        let documents: [YAMLNode]
        do {
            documents = try YAMLNode.documents(Array(data))
        } catch {
            throw invalid(spec, path, detail: "not YAML or JSON: \(error); \(kinds)")
        }
        guard documents.count == 1, let document = documents.first, EnvoyRoute.recognises(document) else {
            throw invalid(
                spec, path,
                detail: documents.count > 1
                    ? "\(documents.count) YAML documents; an Envoy configuration is one" : "not a config file: \(kinds)"
            )
        }
        let envoy: EnvoyRoute
        do {
            envoy = try EnvoyRoute(document, route: route)
        } catch {
            if let route, error.isMissingRoute {
                throw invalid(self.spec(PolicyOptions.configRoute.name), route, detail: "\(error) (in \(path))")
            }
            throw invalid(spec, path, detail: error.description)
        }
        let origin = "--config \(path)"
        let policy = envoy.preset.policy
        var summary =
            "using route '\(envoy.name)' of \(origin) (\(envoy.path.isEmpty ? "the file" : envoy.path)): "
            + "\(policy.maxAttempts - 1) retries, base \(policy.base.unitText), max \((policy.cap ?? .zero).unitText), "
            + "route timeout \(envoy.routeTimeout.map(\.unitText) ?? "none")"
        if let budget = envoy.preset.budget { summary += ", budget \(BudgetSpec.print(budget))" }
        var remarks = [summary]
        if let perTry = envoy.perTryTimeout {
            remarks.append(
                "the route's per_try_timeout \(perTry.unitText) is each attempt's timeout: simulate takes it as "
                    + "--timeout \(perTry.unitText)")
        }
        remarks += envoy.warnings
        let names: [String: String] = [
            "max-retries": PolicyOptions.maxRetries.name, "base": PolicyOptions.base.name,
            "cap": PolicyOptions.cap.name, "budget": ScenarioOptions.budget.name,
        ]
        var origins: [String: String] = [:]
        for (key, source) in envoy.sources {
            if let name = names[key] { origins[name] = "\(source) of \(origin)" }
        }
        if let source = envoy.sources["max-retries"] {
            origins[PolicyOptions.maxAttempts.name] = "\(source) of \(origin)"
        }
        return PolicyStart(
            preset: envoy.preset, origin: "\(origin) (route '\(envoy.name)')", origins: origins, remarks: remarks)
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
