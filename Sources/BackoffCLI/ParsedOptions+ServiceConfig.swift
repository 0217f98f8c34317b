import BackoffPolicies
import Foundation

/// `--grpc-service-config FILE`: the file read (bounded), the reader's values mapped to the options.
extension ParsedOptions {
    /// Reads the gRPC service config at `path` as the policy's start.
    func readServiceConfig(_ path: String) throws(CommandLineError) -> PolicyStart {
        let spec = spec(PolicyOptions.grpcServiceConfig.name)
        let data = try readConfigFile(path, for: spec, kind: "a service config")
        let method = values[PolicyOptions.grpcMethod.name]
        if let method, GrpcServiceConfig.methodName(method) == nil {
            throw invalid(self.spec(PolicyOptions.grpcMethod.name), method)
        }
        do {
            let config = try GrpcServiceConfig(json: data, method: method)
            return PolicyStart(
                preset: config.preset, origin: "--grpc-service-config",
                origins: Dictionary(
                    uniqueKeysWithValues: config.sources.map {
                        (Self.option(setBy: $0.key), "\($0.value) in --grpc-service-config")
                    }),
                remarks: config.remarks.map { remark in
                    guard case .firstMethodConfig = remark else { return remark.description }
                    return "\(remark); pick another with --\(PolicyOptions.grpcMethod.name) SERVICE/METHOD"
                })
        } catch {
            throw invalid(spec, path, detail: error.description)
        }
    }

    /// The file at `path`, given to the option `spec`, read whole up to 1 MiB; a file that cannot be
    /// read, or is larger (too large for `kind`), is a usage error naming it.
    func readConfigFile(_ path: String, for spec: OptionSpec, kind: String) throws(CommandLineError) -> Data {
        do {
            return try BoundedFile.read(path, limit: 1 << 20)
        } catch {
            switch error {
            case .unreadable: throw invalid(spec, path, detail: "the file cannot be read")
            case .tooLarge: throw invalid(spec, path, detail: "the file is larger than 1 MiB, too large for \(kind)")
            }
        }
    }

    /// The option a service config's setting stands for.
    private static func option(setBy setting: GrpcServiceConfig.Setting) -> String {
        switch setting {
        case .base: PolicyOptions.base.name
        case .cap: PolicyOptions.cap.name
        case .multiplier: PolicyOptions.multiplier.name
        case .maxAttempts: PolicyOptions.maxAttempts.name
        case .budget: ScenarioOptions.budget.name
        case .hedge: ScenarioOptions.hedge.name
        }
    }
}
