// swift-tools-version: 6.1
import PackageDescription

/// Settings every target but the porting corpus shares: Swift 6 language mode (set below) plus the upcoming features that make
/// every dependency leaking into the API an explicit `public import`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenHealthKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OpenHealthKit", targets: ["OpenHealthKit"]),
        .library(name: "OpenHealthKitUI", targets: ["OpenHealthKitUI"]),
        .executable(name: "health", targets: ["HealthCLI"]),
        .executable(name: "step-counter", targets: ["StepCounter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // Signed samples (`HKMetadataKeyDigitalSignature`): CMS SignedData verified against certificates the person trusts.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // The daemon (`health serve`): HTTP on Hummingbird 2, its OpenAPI transport, graceful shutdown, logging.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The daemon's tests call it as apps do: a real HTTP client over its Unix socket.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The value layer: identifiers, units, quantities, objects, errors. No I/O.
        .target(name: "HealthModel", swiftSettings: strictSettings),
        // AES-256-GCM for an encrypted store's pages, on the BoringSSL that swift-crypto links (see its header).
        .target(name: "CPageSeal", path: "Sources/CPageSeal"),
        // The engine: one person's store on SQLite (GRDB), its authorization database and rules.
        .target(
            name: "HealthStore",
            dependencies: [
                "HealthModel", "CPageSeal", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the export import's bulk inserts (bound without GRDB's per-row arguments).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Sealing the anchors apps get (AES-GCM, HMAC), and an encrypted store's pages; scrypt for its passphrase.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // Apple Health export and FHIR files: readers (and, later, writers) for the person's imports.
        // SMART Health Cards are verified here too (ES256 with swift-crypto, raw DEFLATE with ZIPFoundation's zlib).
        .target(
            name: "HealthExport",
            dependencies: [
                "HealthModel", "HealthStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        // The public, Apple-compatible API (`import OpenHealthKit`).
        // With `OPENHEALTHKIT_SERVER` it calls the daemon instead of opening the store: the generated client (HealthAPI) on
        // AsyncHTTPClient, over the daemon's Unix socket or TCP.
        .target(
            name: "OpenHealthKit",
            dependencies: [
                "HealthModel", "HealthStore", "HealthExport", "HealthAPI",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The daemon's HTTP API (`health serve`): the OpenAPI document, the types, server stubs and client generated from
        // it by swift-openapi-generator's command-line tool (Scripts/generate_openapi.sh; committed, and checked by a
        // test), and the exact date transcoding both sides use. Generated code is not held to `strictSettings`.
        .target(
            name: "HealthAPI",
            dependencies: [
                "HealthModel", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.json", "openapi-generator-config.yaml"]
        ),
        // The daemon (`health serve`): owns one person's store and serves HealthAPI to authenticated apps over a Unix
        // socket and loopback TCP. The engine and the value layer never import it.
        .target(
            name: "HealthServer",
            dependencies: [
                "HealthModel", "HealthStore", "OpenHealthKit", "HealthAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // Background deliveries: POSTed to apps' callback URLs, signed with HMAC-SHA256.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The seeds' app-side components, for any UI: authorization-management state, trigger-driven requests.
        .target(name: "OpenHealthKitUI", dependencies: ["OpenHealthKit"], swiftSettings: strictSettings),
        // The `health` command-line tool.
        .executableTarget(
            name: "HealthCLI",
            dependencies: [
                "OpenHealthKit", "HealthStore", "HealthServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The small export `health import` brings in when no path is given (made with `health generate --days 14
            // --heart-rate-interval 900` and `health export`).
            resources: [.copy("Resources/sample-export.zip")],
            swiftSettings: strictSettings
        ),
        // An app as HealthKit apps are written, knowing nothing of where the store is: run against the daemon by the tests.
        .executableTarget(name: "StepCounter", dependencies: ["OpenHealthKit"], path: "Examples/StepCounter", swiftSettings: strictSettings),
        // What tests share: waiting for child processes off Swift's cooperative pool, seeded randomness, statistics queries awaited.
        .target(name: "TestSupport", dependencies: [
            "TestSupportC", "OpenHealthKit",
            // A signing device for the signed-sample tests: its maker's root certificate, its own, and CMS signatures.
            .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto"),
        ], path: "Tests/TestSupport", swiftSettings: strictSettings),
        // Starting child processes with posix_spawn and closefrom: Foundation's Process.run() on Linux reads past a buffer
        // while it lists /proc/self/fd (swift-corelibs-foundation #5472), and a full test run holds thousands of descriptors.
        .target(name: "TestSupportC", path: "Tests/TestSupportC"),
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "OpenHealthKitUITests", dependencies: ["OpenHealthKitUI"], swiftSettings: strictSettings),
        .testTarget(
            name: "HealthCLITests",
            dependencies: ["HealthCLI", "OpenHealthKit", "HealthStore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenHealthKitTests",
            dependencies: [
                "OpenHealthKit", "HealthStore", "HealthAPI", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                // The health-card fuzz signs its own cards (ES256 over a raw-DEFLATE payload).
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HealthServerTests",
            dependencies: [
                "HealthServer", "HealthAPI", "HealthStore", "OpenHealthKit", "TestSupport",
                // `health serve` is run as the person runs it, and stopped with SIGTERM; apps run as processes of their own.
                "HealthCLI", "StepCounter",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // The in-process daemon is stopped as SIGTERM stops it: a graceful shutdown, not a cancellation.
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                // The apps' side of background deliveries: a callback server that checks the signatures.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The porting corpus: HealthKit client files compiled as app code is, with only the import swapped. Swift 6
        // language mode and nothing of `strictSettings`: apps do not enable ExistentialAny or InternalImportsByDefault.
        .testTarget(name: "PortingTests", dependencies: ["OpenHealthKit"], path: "Tests/PortingTests"),
    ],
    swiftLanguageModes: [.v6]
)
