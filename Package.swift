// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "backoff-toolkit",
    products: [
        .library(name: "BackoffPolicies", targets: ["BackoffPolicies"]),
        .library(name: "Stochastics", targets: ["Stochastics"]),
        .library(name: "EventSimulation", targets: ["EventSimulation"]),
        .library(name: "Parallelism", targets: ["Parallelism"]),
        .library(name: "RetrySimulation", targets: ["RetrySimulation"]),
        .library(name: "Retrying", targets: ["Retrying"]),
        .library(name: "RetryingHTTP", targets: ["RetryingHTTP"]),
        // Envoy's configuration files read as presets (libyaml).
        .library(name: "ConfigFiles", targets: ["ConfigFiles"]),
        // The command line's parsers and commands, for the fuzz package (Tests/Fuzz) and other tools.
        .library(name: "BackoffCLI", targets: ["BackoffCLI"]),
        .executable(name: "backoff", targets: ["backoff"]),
    ],
    targets: [
        // GSL, found with pkg-config; `scripts/setup` installs it.
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
        ),
        // glibc's allocator tuning (mallopt), for the command line's start.
        .systemLibrary(name: "CMalloc"),
        // libyaml, found with pkg-config; `scripts/setup` installs it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Other projects' config files (Envoy's YAML or JSON), read as presets.
        .target(name: "ConfigFiles", dependencies: ["BackoffPolicies", "CYAML"]),
        // A terminal's width (ioctl), for tables printed with --format table.
        .systemLibrary(name: "CTerminal"),
        // The toolkit's version and the commit it was built from (stamped by the BuildStamp plugin).
        .target(name: "BuildInfo", plugins: ["BuildStamp"]),
        .plugin(name: "BuildStamp", capability: .buildTool()),
        .target(name: "Stochastics", dependencies: ["CGSL"]),
        .target(name: "BackoffPolicies"),
        .target(name: "EventSimulation"),
        // A general pool of threads for independent work items (results in item order).
        .target(name: "Parallelism"),
        // Retries real async work with the same policies; depends on the policies only.
        .target(name: "Retrying", dependencies: ["BackoffPolicies"]),
        // Retrying over HTTP with URLSession: a module of its own, so that what does not send HTTP
        // (the backoff CLI) does not link FoundationNetworking and pay for it at every start.
        .target(name: "RetryingHTTP", dependencies: ["Retrying", "BackoffPolicies"]),
        .target(
            name: "RetrySimulation",
            dependencies: ["BackoffPolicies", "EventSimulation", "Parallelism", "Stochastics"]
        ),
        .target(
            name: "BackoffCLI",
            dependencies: [
                "BackoffPolicies", "BuildInfo", "ConfigFiles", "EventSimulation", "Parallelism", "RetrySimulation",
                "Retrying",
                "Stochastics",
            ]
        ),
        .executableTarget(name: "backoff", dependencies: ["BackoffCLI", "CMalloc", "CTerminal"]),

        .testTarget(name: "StochasticsTests", dependencies: ["Stochastics", "CGSL"]),
        .testTarget(name: "BackoffPoliciesTests", dependencies: ["BackoffPolicies", "Stochastics", "RetrySimulation"]),
        .testTarget(name: "EventSimulationTests", dependencies: ["EventSimulation"]),
        .testTarget(name: "ParallelismTests", dependencies: ["Parallelism"]),
        .testTarget(
            name: "RetrySimulationTests",
            dependencies: ["RetrySimulation", "BackoffPolicies", "EventSimulation", "Stochastics"]
        ),
        .testTarget(
            name: "BackoffCLITests",
            dependencies: [
                "BackoffCLI", "BackoffPolicies", "BuildInfo", "ConfigFiles", "Retrying", "RetrySimulation",
                "Stochastics",
            ]),
        .testTarget(
            name: "RetryingTests",
            dependencies: [
                "Retrying", "RetryingHTTP", "BackoffPolicies", "EventSimulation", "RetrySimulation", "Stochastics",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
