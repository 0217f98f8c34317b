import BackoffPolicies

/// Finding the routes and clusters in a file, and reading one route's retries.
extension EnvoyRoute {
    /// A route, its virtual host, and where they are.
    struct Candidate {
        let name: String
        let hostName: String
        let path: String
        let hostPath: String
        let route: YAMLNode
        let host: YAMLNode
    }

    /// The fields of Envoy's `RetryPolicy` (route_components.proto); any other is refused, as Envoy
    /// refuses an unknown field.
    static let retryPolicyFields: Set<String> = [
        "retry_on", "num_retries", "per_try_timeout", "per_try_idle_timeout", "retry_priority",
        "retry_host_predicate", "retry_options_predicates", "host_selection_retry_max_attempts",
        "retriable_status_codes", "retry_back_off", "rate_limited_retry_back_off", "retriable_headers",
        "retriable_request_headers",
    ]

    /// The fields read into the model; the others are warned about.
    static let modelledFields: Set<String> = ["retry_on", "num_retries", "per_try_timeout", "retry_back_off"]

    /// Every route of every route configuration in the document, in file order.
    static func routes(in document: YAMLNode) throws(Invalid) -> [Candidate] {
        var configurations: [(node: YAMLNode, path: String)] = []
        if let resources = document["static_resources"] {
            for (i, listener) in try items(resources["listeners"], "static_resources.listeners").enumerated() {
                let listenerPath = "static_resources.listeners[\(i)]"
                for (j, chain) in try items(listener["filter_chains"], "\(listenerPath).filter_chains").enumerated() {
                    let chainPath = "\(listenerPath).filter_chains[\(j)]"
                    for (k, filter) in try items(chain["filters"], "\(chainPath).filters").enumerated() {
                        if let configuration = filter["typed_config"]?["route_config"] {
                            configurations.append(
                                (configuration, "\(chainPath).filters[\(k)].typed_config.route_config"))
                        }
                    }
                }
            }
        } else if document["virtual_hosts"] != nil {
            configurations = [(document, "")]
        } else if document["routes"] != nil {
            return try routes(ofHost: document, path: "", index: nil)
        } else {
            let host = YAMLNode.mapping([("name", .scalar("route", quoted: false, line: 1))], line: 1)
            return [Candidate(name: "route", hostName: "", path: "", hostPath: "", route: document, host: host)]
        }
        var found: [Candidate] = []
        for (configuration, path) in configurations {
            let hostsPath = path.isEmpty ? "virtual_hosts" : "\(path).virtual_hosts"
            for (i, host) in try items(configuration["virtual_hosts"], hostsPath).enumerated() {
                found += try routes(ofHost: host, path: "\(hostsPath)[\(i)]", index: i)
            }
        }
        return found
    }

    private static func routes(ofHost host: YAMLNode, path: String, index: Int?) throws(Invalid) -> [Candidate] {
        let hostName = try text(host["name"], "\(path).name") ?? "virtual_hosts[\(index ?? 0)]"
        let routesPath = path.isEmpty ? "routes" : "\(path).routes"
        return try items(host["routes"], routesPath).enumerated().map { (j, route) throws(Invalid) in
            let routePath = "\(routesPath)[\(j)]"
            let name = try text(route["name"], "\(routePath).name") ?? "\(hostName)/routes[\(j)]"
            return Candidate(name: name, hostName: hostName, path: routePath, hostPath: path, route: route, host: host)
        }
    }

    /// The bootstrap's static clusters by name.
    static func clusters(in document: YAMLNode) throws(Invalid) -> [String: (node: YAMLNode, path: String)] {
        var clusters: [String: (YAMLNode, String)] = [:]
        let listPath = "static_resources.clusters"
        for (i, cluster) in try items(document["static_resources"]?["clusters"], listPath).enumerated() {
            if let name = try text(cluster["name"], "\(listPath)[\(i)].name") {
                clusters[name] = (cluster, "\(listPath)[\(i)]")
            }
        }
        return clusters
    }

    // MARK: Values, as protobuf's JSON mapping reads them

    /// A sequence's items (none when the field is absent).
    static func items(_ node: YAMLNode?, _ path: String) throws(Invalid) -> [YAMLNode] {
        guard let node else { return [] }
        guard case .sequence(let items, _) = node else { throw Invalid("\(path): expected a list (line \(node.line))") }
        return items
    }

    /// A string field's text.
    static func text(_ node: YAMLNode?, _ path: String) throws(Invalid) -> String? {
        guard let node else { return nil }
        guard case .scalar(let text, _, _) = node else {
            throw Invalid("\(path): expected a string (line \(node.line))")
        }
        return text
    }

    /// A `UInt32Value` (or uint32) field: a whole number from 0 to 4294967295, written as a number
    /// or a string of one.
    static func count(_ node: YAMLNode?, _ path: String) throws(Invalid) -> Int? {
        guard let node else { return nil }
        guard case .scalar(let text, _, _) = node, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let value = UInt32(text)
        else {
            throw Invalid(
                "\(path): expected a whole number from 0 to 4294967295, got \(shown(node)) (line \(node.line))")
        }
        return Int(value)
    }

    /// A `Duration`: `"1.5s"` (seconds, at most 9 decimals, as protobuf's JSON mapping writes it) or
    /// `{seconds: 1, nanos: 500000000}`; at least 0.
    static func duration(_ node: YAMLNode?, _ path: String) throws(Invalid) -> Duration? {
        guard let node else { return nil }
        let form = "a duration such as \"0.25s\" or {seconds: 0, nanos: 250000000}"
        if case .scalar(let text, _, _) = node, text.hasSuffix("s") {
            let number = text.dropLast().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            if let whole = number.first, !whole.isEmpty, whole.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                whole.count <= 12,
                number.count == 1
                    || (1...9).contains(number[1].count) && number[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
            {
                let fraction = number.count == 2 ? number[1] + String(repeating: "0", count: 9 - number[1].count) : "0"
                return .seconds(Int64(whole)!) + .nanoseconds(Int64(fraction)!)
            }
        }
        if case .mapping(let members, _) = node, Set(members.map(\.key)).isSubset(of: ["seconds", "nanos"]) {
            let seconds = try count(node["seconds"], "\(path).seconds") ?? 0
            let nanos = try count(node["nanos"], "\(path).nanos") ?? 0
            guard nanos < 1_000_000_000 else { throw Invalid("\(path).nanos: expected less than 1000000000") }
            return .seconds(seconds) + .nanoseconds(nanos)
        }
        throw Invalid("\(path): expected \(form), got \(shown(node)) (line \(node.line))")
    }

    /// A node as a message quotes it.
    static func shown(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let text, _, _): "'\(text.count > 40 ? String(text.prefix(40)) + "..." : text)'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}
