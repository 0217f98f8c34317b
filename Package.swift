// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "backoff-toolkit",
    products: [
        .library(name: "BackoffPolicies", targets: ["BackoffPolicies"]),
        .library(name: "Stochastics", targets: ["Stochastics"]),
        .library(name: "EventSimulation", targets: ["EventSimulation"]),
        .library(name: "RetrySimulation", targets: ["RetrySimulation"]),
        .library(name: "Retrying", targets: ["Retrying"]),
        .executable(name: "backoff", targets: ["backoff"]),
    ],
    targets: [
        // GSL, found with pkg-config; `scripts/setup` installs it.
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
        ),
        .target(name: "Stochastics", dependencies: ["CGSL"]),
        .target(name: "BackoffPolicies"),
        .target(name: "EventSimulation"),
        // Retries real async work with the same policies; depends on the policies only.
        .target(name: "Retrying", dependencies: ["BackoffPolicies"]),
        .target(
            name: "RetrySimulation",
            dependencies: ["BackoffPolicies", "EventSimulation", "Stochastics"]
        ),
        .target(
            name: "BackoffCLI",
            dependencies: ["BackoffPolicies", "RetrySimulation", "Stochastics"]
        ),
        .executableTarget(name: "backoff", dependencies: ["BackoffCLI"]),

        .testTarget(name: "StochasticsTests", dependencies: ["Stochastics", "CGSL"]),
        .testTarget(name: "BackoffPoliciesTests", dependencies: ["BackoffPolicies", "Stochastics", "RetrySimulation"]),
        .testTarget(name: "EventSimulationTests", dependencies: ["EventSimulation"]),
        .testTarget(
            name: "RetrySimulationTests",
            dependencies: ["RetrySimulation", "BackoffPolicies", "Stochastics"]
        ),
        .testTarget(name: "BackoffCLITests", dependencies: ["BackoffCLI", "BackoffPolicies"]),
        .testTarget(name: "RetryingTests", dependencies: ["Retrying", "BackoffPolicies", "RetrySimulation", "Stochastics"]),
    ],
    swiftLanguageModes: [.v6]
)
