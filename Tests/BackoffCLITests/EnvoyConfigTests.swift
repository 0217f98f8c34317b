import Foundation
import Testing

@testable import BackoffCLI

/// `--config` with an Envoy configuration: a route's retry_policy, the route timeout and the
/// cluster's retry budget as Envoy's router reads them, in YAML or JSON, from a bootstrap, a route
/// configuration, a virtual host or a route; what is not modelled is warned about by path, and a
/// field Envoy refuses is a usage error naming it.
@Suite struct EnvoyConfigTests {
    static let bootstrap = """
        static_resources:
          listeners:
          - name: listener_0
            filter_chains:
            - filters:
              - name: envoy.filters.network.http_connection_manager
                typed_config:
                  "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
                  route_config:
                    name: local_route
                    virtual_hosts:
                    - name: backend
                      domains: ["*"]
                      retry_policy: { retry_on: 5xx }
                      routes:
                      - name: orders
                        match: { prefix: "/orders" }
                        route:
                          cluster: orders_service
                          timeout: 3s
                          retry_policy:
                            retry_on: "5xx,reset,connect-failure"
                            num_retries: 3
                            per_try_timeout: 0.5s
                            retry_back_off: { base_interval: 0.1s, max_interval: 1s }
                            retry_host_predicate:
                            - name: envoy.retry_host_predicates.previous_hosts
                      - match: { prefix: "/" }
                        route: { cluster: web }
          clusters:
          - name: orders_service
            circuit_breakers:
              thresholds:
              - priority: DEFAULT
                retry_budget: { budget_percent: { value: 25.0 }, min_retry_concurrency: 5 }
            outlier_detection: { consecutive_5xx: 5 }
        """

    private func run(_ text: String, _ arguments: [String], name: String = "envoy.yaml") throws -> Invocation {
        let directory = TemporaryDirectory()
        let path = try directory.write(text, to: name)
        return Invocation(arguments + ["--config", path])
    }

    /// The orders route: 3 retries of whole milliseconds in [0, w) with w = 100, 200, 400 ms (the
    /// 1 s maximum is not reached), so E[W] = (99 + 199 + 399)/2 ms = 0.3485 s; the route timeout
    /// (3 s) is above the longest total wait (0.7 s), so it is not the policy's time limit.
    @Test func aBootstrapsRouteIsReadAsEnvoysRouterReadsIt() throws {
        let formula = try run(Self.bootstrap, ["formula", "--config-route", "orders"])
        #expect(formula.status == 0, "\(formula.stderr)")
        #expect(formula.field("base_s") == "0.1" && formula.field("cap_s") == "1")
        #expect(formula.field("max_attempts") == "4" && formula.field("max_elapsed_s") == "inf")
        #expect(formula.field("mean_total_wait_s") == "0.3485" && formula.field("granularity_s") == "0.001")
        for expected in [
            "using route 'orders' of --config",
            "3 retries, base 100ms, max 1s, route timeout 3s, "
                + "budget concurrency:percent=0.25:min=5",
            "per_try_timeout 500ms is each attempt's timeout: simulate takes it as --timeout 500ms",
            "routes[0].route.retry_policy.retry_host_predicate: not modelled",
            "static_resources.clusters[0].outlier_detection: not modelled here",
        ] {
            #expect(formula.stderr.contains(expected), "\(expected): \(formula.stderr)")
        }
        // simulate takes the cluster's budget: 25 % of the active requests, at least 5.
        let simulate = try run(Self.bootstrap, ["simulate", "--config-route", "orders", "--clients", "50"])
        #expect(simulate.status == 0 && !simulate.stderr.contains("does not apply"), "\(simulate.stderr)")
    }

    /// The other route has no retry_policy of its own: its virtual host's (retry_on 5xx) with
    /// Envoy's defaults, one retry in [0, 25) ms: E[W] = 12 ms, as the envoy-default preset; its
    /// cluster is not in the file, so the budget is Envoy's default circuit breaker.
    @Test func aRouteTakesItsHostsPolicyAndEnvoysDefaults() throws {
        let run = try run(Self.bootstrap, ["formula", "--config-route", "backend/routes[1]"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.field("max_attempts") == "2" && run.field("base_s") == "0.025" && run.field("cap_s") == "0.25")
        #expect(
            run.field("mean_total_wait_s")
                == Invocation(["formula", "--preset", "envoy-default"]).field(
                    "mean_total_wait_s"))
        #expect(run.stderr.contains("cluster 'web' is not in the file: Envoy's default of 3 retries in flight"))
    }

    /// A RouteConfiguration in JSON, durations as {seconds, nanos}, a count as a string; a route with
    /// no policy anywhere does not retry.
    @Test func aRouteConfigurationInJSON() throws {
        let json = """
            {"name": "r", "virtual_hosts": [{"name": "api", "domains": ["*"], "routes": [
              {"name": "a", "match": {"prefix": "/a"}, "route": {"cluster": "c", "retry_policy": {
                "retry_on": "gateway-error", "num_retries": "2",
                "retry_back_off": {"base_interval": {"seconds": 0, "nanos": 50000000}}}}},
              {"name": "b", "match": {"prefix": "/"}, "route": {"cluster": "c"}}]}]}
            """
        let a = try run(json, ["formula", "--config-route", "a"], name: "routes.json")
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.field("base_s") == "0.05" && a.field("cap_s") == "0.5" && a.field("max_attempts") == "3")
        let b = try run(json, ["formula", "--config-route", "api/b"], name: "routes.json")
        #expect(b.field("max_attempts") == "1", "\(b.stderr)")
        #expect(b.stderr.contains("b has no retry_policy (nor has its virtual host): Envoy does not retry it"))
        let both = try run(json, ["formula"], name: "routes.json")
        #expect(both.status == 64 && both.stderr.contains("the file has 2 routes: 'a' (virtual_hosts[0].routes[0])"))
    }

    @Test(arguments: [
        ("retry_policy: { retry_on: 5xx, num_retry: 3 }", "retry_policy.num_retry: not a field of Envoy's RetryPolicy"),
        (
            "retry_policy: { retry_on: 5xx, num_retries: -1 }",
            "num_retries: expected a whole number from 0 to 4294967295"
        ),
        ("retry_policy: { retry_on: 5xx, num_retries: 4294967296 }", "expected a whole number from 0 to 4294967295"),
        ("retry_policy: { retry_on: 5xx, num_retries: 2000000 }", "is more than the model takes (1000000)"),
        ("retry_policy: { retry_on: 5xx, num_retries: .nan }", "got '.nan'"),
        ("retry_policy: { retry_on: 5xx, retry_back_off: { base_interval: 0s } }", "Envoy needs at least 1ms"),
        ("retry_policy: { retry_on: 5xx, retry_back_off: { base_interval: -1s } }", "expected a duration such as"),
        ("retry_policy: { retry_on: 5xx, retry_back_off: { base_interval: 1.0000000001s } }", "expected a duration"),
        ("retry_policy: { retry_on: 5xx, retry_back_off: { max_interval: 1s } }", "base_interval: required"),
        (
            "retry_policy: { retry_on: 5xx, retry_back_off: { base_interval: 1s, max_interval: 0.5s } }",
            "max_interval: must be at least base_interval (1s)"
        ),
        ("retry_policy: [5xx]", "retry_policy: expected a mapping"),
        ("timeout: 99999999999999s", "expected a duration such as"),
        ("retry_policy: { retry_on: 5xx, retry_back_off: { base_interval: 999999999999s } }", "retry_policy: "),
    ])
    func aFieldEnvoyRefusesIsAUsageErrorNamingItsPath(field: String, message: String) throws {
        let text = """
            virtual_hosts:
            - name: api
              domains: ["*"]
              routes:
              - name: only
                match: { prefix: "/" }
                route:
                  cluster: c
                  \(field)
            """
        let directory = TemporaryDirectory()
        let path = try directory.write(text, to: "routes.yaml")
        let output = directory.file("out.csv")
        let run = Invocation(["formula", "--config", path, "--output", output])
        #expect(run.status == 64, "\(field): \(run.stderr)")
        #expect(run.stderr.contains("virtual_hosts[0].routes[0].route"), "\(field): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(field): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Files that are not one Envoy configuration, or that would cost more than any config needs.
    @Test(arguments: [
        ("kind: Deployment\nmetadata: { name: x }\n", "not a config file: --config reads AWS shared config"),
        ("a: [1, 2\n", "not YAML or JSON: line"),
        ("virtual_hosts: []\n---\nvirtual_hosts: []\n", "2 YAML documents"),
        ("virtual_hosts: []\n", "the file has no route"),
        ("virtual_hosts:\n- name: a\n  routes: 3\n", "virtual_hosts[0].routes: expected a list"),
        (
            "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                + (1...7).map {
                    "a\($0): &a\($0) [*a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1)), *a\($0 == 1 ? "" : String($0 - 1))]"
                }.joined(separator: "\n") + "\n", "nodes once aliases expand"
        ),
        (
            "a: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
            "nested deeper than 64 levels"
        ),
        ("a: 1\na: 2\n", "the key 'a' appears twice"),
    ])
    func filesThatAreNotOneEnvoyConfigurationAreRefused(text: String, message: String) throws {
        let run = try run(text, ["formula"])
        #expect(run.status == 64 && run.stdout.isEmpty, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(message): \(run.stderr)")
    }

    /// A route asked for by a name the file lacks is an error of --config-route, listing the routes.
    @Test func aMissingRouteNamesTheRoutes() throws {
        let run = try run(Self.bootstrap, ["formula", "--config-route", "payments"])
        #expect(run.status == 64)
        #expect(
            run.stderr.contains("for '--config-route <name>': no route 'payments' in the file; its routes: 'orders'"))
    }

    /// Long waits and many retries: the longest total wait is summed in doubles (2^k of a long base
    /// overflowed a Duration and trapped), and a million retries of 10^6 s reach the 15 s timeout.
    @Test func longWaitsAndManyRetriesAreSummedWithoutOverflow() throws {
        let text = """
            virtual_hosts:
            - name: a
              routes:
              - name: r
                route: {retry_policy: {retry_on: 5xx, num_retries: 1000000, retry_back_off: {base_interval: 1000000s}}}
            """
        let long = try run(text, ["formula"])
        #expect(long.status == 0 && long.field("max_attempts") == "1000001" && long.field("max_elapsed_s") == "15")
        let many = text.replacingOccurrences(of: "1000000s", with: "0.001s")
        let quick = try run(many, ["formula"])
        // 1 + 2 + ... + 8 ms, then 10 ms each (the maximum, 10 x base): far beyond 15 s in all.
        #expect(quick.status == 0 && quick.field("max_elapsed_s") == "15" && quick.field("cap_s") == "0.01")
    }

    /// A per-try timeout not below the route timeout is ignored, as Envoy ignores it; an empty
    /// retry_on retries nothing.
    @Test func envoysOwnRulesAboutTimeoutsAndConditions() throws {
        let text = """
            virtual_hosts:
            - name: api
              routes:
              - name: slow
                route: { cluster: c, timeout: 1s, retry_policy: { retry_on: 5xx, per_try_timeout: 2s } }
              - name: none
                route: { cluster: c, retry_policy: { retry_on: "", num_retries: 5 } }
            """
        let slow = try run(text, ["formula", "--config-route", "slow"])
        #expect(slow.status == 0 && slow.stderr.contains("per_try_timeout 2s is not below the route timeout 1s"))
        #expect(!slow.stderr.contains("simulate takes it as --timeout"))
        let none = try run(text, ["formula", "--config-route", "none"])
        #expect(none.field("max_attempts") == "1" && none.stderr.contains("retry_on is empty: Envoy retries nothing"))
    }
}
