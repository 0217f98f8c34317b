// swift-tools-version:6.0
// The fuzz targets of the toolkit's parsers, built with libFuzzer (swiftc -sanitize=fuzzer) by
// scripts/fuzz, which selects a target with BACKOFF_FUZZ_TARGET. Not part of the main package, so
// a normal build never links libFuzzer.
import PackageDescription

let package = Package(
    name: "backoff-fuzz",
    dependencies: [.package(name: "backoff-toolkit", path: "../..")],
    targets: [
        .executableTarget(
            name: "BackoffFuzz",
            dependencies: [
                .product(name: "BackoffCLI", package: "backoff-toolkit"),
                .product(name: "ConfigFiles", package: "backoff-toolkit"),
                .product(name: "BackoffPolicies", package: "backoff-toolkit"),
                .product(name: "Retrying", package: "backoff-toolkit"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
