import BackoffPolicies

/// One route of an Envoy configuration (v3 API, YAML or JSON) and its retries as Envoy's router
/// reads them: the route's `retry_policy`, else its virtual host's (a route's replaces the host's
/// whole, as Envoy's documentation says), its cluster's retry budget or `max_retries`, and the route
/// timeout. Defaults are Envoy's: one retry, a 25 ms base, a maximum of 10 times the base, a 15 s
/// route timeout, 3 retries in flight (or, with a `retry_budget`, 20 % with a floor of 3).
///
/// The file may be a bootstrap (`static_resources`: its listeners' HTTP connection managers'
/// `route_config`s, and its clusters), a `RouteConfiguration` (`virtual_hosts`), a virtual host
/// (`routes`) or a route (`match` and `route`). Read from Envoy's documentation and source
/// (api/envoy/config/route/v3/route_components.proto, source/common/router/retry_state_impl.cc):
/// Envoy cannot be built here, so it is read, not run.
public struct EnvoyRoute: Sendable {
    /// A file or field Envoy refuses, or one the model cannot take; the message names its path.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        /// True when the file is read but has no route by the name asked for.
        public let isMissingRoute: Bool

        init(_ description: String, missingRoute: Bool = false) {
            (self.description, isMissingRoute) = (description, missingRoute)
        }
    }

    /// How the route is named: its `name`, else `HOST/routes[i]`.
    public let name: String
    /// Where the route is in the file: `virtual_hosts[0].routes[1]`, after a bootstrap's prefix.
    public let path: String
    /// The route's retries as a preset: Envoy's schedule with the file's values, and its budget.
    public let preset: Preset
    /// `per_try_timeout`, when set and below the route timeout (Envoy ignores a longer one).
    public let perTryTimeout: Duration?
    /// The route `timeout` (15 s by default); `nil` when the file sets 0 (no timeout).
    public let routeTimeout: Duration?
    /// What the file says that the model does not cover, by path, for stderr.
    public let warnings: [String]
    /// Where each of the policy's values comes from (`num_retries` → its path), by what it sets.
    public let sources: [String: String]

    /// Whether `node` looks like an Envoy configuration.
    public static func recognises(_ node: YAMLNode) -> Bool {
        node["static_resources"] != nil || node["virtual_hosts"] != nil
            || (node["routes"] != nil && node["domains"] != nil) || (node["match"] != nil && node["route"] != nil)
    }

    /// The route `asked` names (its name, `HOST/NAME`, or its path), or the file's only route.
    public init(_ document: YAMLNode, route asked: String?) throws(Invalid) {
        let routes = try Self.routes(in: document)
        let candidates: [Candidate]
        if let asked {
            candidates = routes.filter { $0.name == asked || $0.path == asked || "\($0.hostName)/\($0.name)" == asked }
        } else {
            candidates = routes
        }
        guard candidates.count == 1, let chosen = candidates.first else {
            let listed = routes.prefix(20).map { "'\($0.name)' (\($0.path))" }.joined(separator: ", ")
            if routes.isEmpty { throw Invalid("the file has no route (virtual_hosts[].routes[])") }
            if let asked, candidates.isEmpty {
                throw Invalid("no route '\(asked)' in the file; its routes: \(listed)", missingRoute: true)
            }
            throw Invalid(
                "the file has \(candidates.count) routes\(asked.map { " named '\($0)'" } ?? ""): \(listed); "
                    + "pick one by its name or path with --config-route")
        }
        try self.init(chosen, clusters: Self.clusters(in: document))
    }
}
