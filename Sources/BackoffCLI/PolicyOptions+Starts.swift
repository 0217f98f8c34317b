import BackoffPolicies

/// The options a policy can start from instead of the defaults: a preset, a gRPC service config,
/// or another project's config file (read into a ``PolicyStart``).
extension PolicyOptions {
    static let preset = Option<String?>.optional(
        "preset", "name", form: "one of " + Preset.all.map(\.name).joined(separator: ", "),
        help: "Start from a policy a library ships (see 'backoff presets'); options given override it.",
        parse: Parsers.text
    ).completing(Preset.all.map(\.name))
    static let grpcServiceConfig = Option<String?>.optional(
        "grpc-service-config", "file", form: "a gRPC service config JSON file with a methodConfig retryPolicy",
        help: "Read the retry policy (and retryThrottling, as the token budget) of a gRPC service config; "
            + "options given override it.",
        parse: Parsers.text)
    static let grpcMethod = Option<String?>.optional(
        "grpc-method", "service/method", form: "SERVICE/METHOD, e.g. helloworld.Greeter/SayHello",
        help: "With --grpc-service-config: the method whose retry policy to use (default: the first with one).",
        parse: Parsers.text)
    static let config = Option<String?>.optional(
        "config", "file",
        form: "an AWS shared config file (INI: [default] and [profile NAME] sections) or an Envoy configuration "
            + "(YAML or JSON: a bootstrap, a RouteConfiguration, a virtual host or a route)",
        help: "Read the retry policy of a config file as its project reads it: an AWS shared config profile's "
            + "retry_mode and max_attempts, as botocore does; an Envoy route's retry_policy, route timeout and "
            + "cluster retry budget, as Envoy's router does. Options given override it.",
        parse: Parsers.text)
    static let configRoute = Option<String?>.optional(
        "config-route", "name", form: "a profile's name (e.g. prod), or a route's name or path",
        help: "With --config: the part of the file to read: an AWS profile (default: 'default'), or an Envoy "
            + "route by name, HOST/NAME or path (default: the file's only route).",
        parse: Parsers.text)
}
