import Foundation
import Testing

@testable import BackoffCLI

/// `--grpc-service-config`: a service config's retry policy and throttling, as gRPC's A6 reads them.
@Suite struct GrpcServiceConfigTests {
    static let config = """
        {
          "methodConfig": [
            {"name": [{"service": "helloworld.Greeter", "method": "SayHello"}],
             "retryPolicy": {"maxAttempts": 7, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2,
                             "retryableStatusCodes": ["UNAVAILABLE"]}},
            {"name": [{"service": "helloworld.Greeter"}],
             "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.5s", "maxBackoff": "5s", "backoffMultiplier": 1.5,
                             "retryableStatusCodes": [14, "RESOURCE_EXHAUSTED"]}},
            {"name": [{}],
             "retryPolicy": {"maxAttempts": 2, "initialBackoff": "2s", "maxBackoff": "2s", "backoffMultiplier": 1,
                             "retryableStatusCodes": ["UNAVAILABLE"]}}
          ],
          "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
        }
        """

    /// The first method config by default, maxAttempts clamped to 5, both said on stderr. The wait
    /// before attempt n + 1 is U(0, min(0.1 s 2^(n-1), 1 s)): E[W] = (0.1 + 0.2 + 0.4 + 0.8)/2 = 0.75 s.
    @Test func theFirstRetryPolicyIsReadAsA6Says() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "service-config.json")
        let result = Invocation(["formula", "--grpc-service-config", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("jitter") == "full" && result.field("cap_mode") == "nominal")
        #expect(result.field("base_s") == "0.1" && result.field("cap_s") == "1" && result.field("multiplier") == "2")
        #expect(result.field("max_attempts") == "5" && result.field("mean_total_wait_s") == "0.75")
        #expect(result.stderr.contains("maxAttempts 7 is clamped to 5"))
        #expect(result.stderr.contains("using methodConfig[0] (helloworld.Greeter/SayHello)"))
    }

    /// --grpc-method picks the exact method, else the service's config, else the default one.
    @Test(arguments: [
        ("helloworld.Greeter/SayHello", "0.1"), ("helloworld.Greeter/SayGoodbye", "0.5"), ("other.Service/Call", "2"),
    ])
    func theMethodPicksItsConfig(method: String, base: String) throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "service-config.json")
        let result = Invocation(["formula", "--grpc-service-config", path, "--grpc-method", method])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("base_s") == base)
    }

    /// retryThrottling becomes the token budget in simulate, and options given still override.
    @Test func throttlingIsTheTokenBudgetAndOptionsOverride() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "service-config.json")
        let result = Invocation([
            "simulate", "--grpc-service-config", path, "--clients", "500", "--server", "outage:2s", "--base", "50ms",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("base_s") == "0.05")
        #expect(
            result.field("budget_denials").map { Int($0)! > 0 } == true, "10 tokens cannot pay for 500 clients' retries"
        )
    }

    /// Bad files are usage errors that name the field and the form, and write nothing.
    @Test(arguments: [
        ("{\"methodConfig\": [", "not valid JSON"),
        ("[1, 2]", "the service config must be a JSON object"),
        ("{}", "methodConfig is missing; expected a list of method configs with a retryPolicy or a hedgingPolicy"),
        ("{\"methodConfig\": [{\"name\": [{}]}]}", "no methodConfig has a retryPolicy or a hedgingPolicy"),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {}, \"hedgingPolicy\": {}}]}",
            "methodConfig[0]: a method config has a retryPolicy or a hedgingPolicy, not both (A6)"
        ),
        (
            "{\"methodConfig\": [{\"hedgingPolicy\": {\"maxAttempts\": 1}}]}",
            "methodConfig[0].hedgingPolicy.maxAttempts: expected an integer >= 2, got 1"
        ),
        (
            "{\"methodConfig\": [{\"hedgingPolicy\": {\"maxAttempts\": 2, \"hedgingDelay\": \"1\"}}]}",
            "methodConfig[0].hedgingPolicy.hedgingDelay: expected a duration string in seconds"
        ),
        (
            "{\"methodConfig\": [{\"hedgingPolicy\": {\"maxAttempts\": 2, \"nonFatalStatusCodes\": [\"SLOW\"]}}]}",
            "methodConfig[0].hedgingPolicy.nonFatalStatusCodes[0]: expected a status name"
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"initialBackoff\": \"0.1s\"}}]}",
            "methodConfig[0].retryPolicy.maxAttempts is missing; expected an integer >= 2"
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": \"3\"}}]}",
            "methodConfig[0].retryPolicy.maxAttempts: expected an integer >= 2, got the string \"3\""
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": 0.1}}]}",
            "methodConfig[0].retryPolicy.initialBackoff: expected a duration string in seconds greater than 0, e.g. \"0.1s\", got the number 0.1"
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"100ms\", \"maxBackoff\": \"1s\"}}]}",
            "methodConfig[0].retryPolicy.initialBackoff: expected a duration string in seconds greater than 0, e.g. \"0.1s\", got the string \"100ms\""
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", "
                + "\"backoffMultiplier\": true}}]}",
            "methodConfig[0].retryPolicy.backoffMultiplier: expected a number > 0, got a boolean"
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", "
                + "\"backoffMultiplier\": 2, \"retryableStatusCodes\": []}}]}",
            "methodConfig[0].retryPolicy.retryableStatusCodes: expected a non-empty list of status codes, e.g. [\"UNAVAILABLE\"], got a list"
        ),
        (
            "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", "
                + "\"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}], \"retryThrottling\": {\"maxTokens\": 5000, \"tokenRatio\": 0.1}}",
            "retryThrottling.maxTokens: expected a number in (0, 1000], got 5000"
        ),
    ])
    func badConfigsAreUsageErrors(json: String, message: String) throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(json, to: "service-config.json")
        let output = try directory.write("keep me\n", to: "table.csv")
        let result = Invocation(["waits", "--grpc-service-config", path, "--output", output])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix("backoff: Invalid value '\(path)' for '--grpc-service-config <file>': \(message)"),
            "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n")
    }

    @Test func aPresetAndAServiceConfigTogetherAreAUsageError() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "service-config.json")
        let result = Invocation(["formula", "--preset", "aws-sdk-standard", "--grpc-service-config", path])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("backoff: Use one of '--preset', '--grpc-service-config', not several"))
    }

    /// A method config's hedgingPolicy is the start's hedge: maxAttempts copies (clamped to 5, as gRPC
    /// does), hedgingDelay apart (0 when absent), one attempt and no retries; the throttling is its
    /// budget. simulate takes the hedge against a capacity server and remarks on it elsewhere.
    @Test func aHedgingPolicyIsTheStartsHedge() throws {
        let directory = TemporaryDirectory()
        let config = """
            {"methodConfig": [{"name": [{}], "hedgingPolicy": {"maxAttempts": 7, "hedgingDelay": "0.5s",
              "nonFatalStatusCodes": ["UNAVAILABLE", 14]}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}
            """
        let path = try directory.write(config, to: "service-config.json")
        let hedged = Invocation(
            ["simulate", "--grpc-service-config", path, "--server", "capacity", "--clients", "20", "--jitter", "none"])
        #expect(hedged.status == 0, "\(hedged.stderr)")
        #expect(hedged.field("hedge") == "on:delay=500ms:max-attempts=5:cancel=yes")
        #expect(hedged.field("max_attempts") == "1")
        #expect(hedged.stderr.contains("maxAttempts 7 is clamped to 5"))
        let elsewhere = Invocation(["simulate", "--grpc-service-config", path, "--clients", "20", "--jitter", "none"])
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(elsewhere.field("hedge") == "none")
        #expect(
            elsewhere.stderr.contains(
                "the start's hedge ('--hedge on:delay=500ms:max-attempts=5:cancel=yes') has no effect"))
    }
}
