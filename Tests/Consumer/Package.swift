// swift-tools-version:6.0
// A separate package that uses the toolkit's libraries as an app would, by path: scripts/test builds
// it in Swift 6 language mode with warnings as errors and runs it. It fails to build if `Retrier`
// asks an actor-isolated caller for Sendable closures or hops.
import PackageDescription

let package = Package(
    name: "backoff-consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "backoff-toolkit", path: "../..")],
    targets: [
        .executableTarget(
            name: "ConsumerApp",
            dependencies: [
                .product(name: "Retrying", package: "backoff-toolkit"),
                .product(name: "BackoffPolicies", package: "backoff-toolkit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
