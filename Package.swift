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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        // The value layer: identifiers, units, quantities, objects, errors. No I/O.
        .target(name: "HealthModel", swiftSettings: strictSettings),
        // The engine: one person's store on SQLite (GRDB), its authorization database and rules.
        .target(
            name: "HealthStore",
            dependencies: [
                "HealthModel", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the export import's bulk inserts (bound without GRDB's per-row arguments).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Sealing the anchors apps get (AES-GCM, HMAC).
                .product(name: "Crypto", package: "swift-crypto"),
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
        .target(name: "OpenHealthKit", dependencies: ["HealthModel", "HealthStore", "HealthExport"], swiftSettings: strictSettings),
        // The daemon's HTTP API (`health serve`): the OpenAPI document, the types, server stubs and client generated from
        // it by swift-openapi-generator's command-line tool (Scripts/generate_openapi.sh; committed, and checked by a
        // test), and the exact date transcoding both sides use. Generated code is not held to `strictSettings`.
        .target(
            name: "HealthAPI",
            dependencies: ["HealthModel", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi.json", "openapi-generator-config.yaml"]
        ),
        // The seeds' app-side components, for any UI: authorization-management state, trigger-driven requests.
        .target(name: "OpenHealthKitUI", dependencies: ["OpenHealthKit"], swiftSettings: strictSettings),
        // The `health` command-line tool.
        .executableTarget(
            name: "HealthCLI",
            dependencies: [
                "OpenHealthKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The small export `health import` brings in when no path is given (made with `health generate --days 14
            // --heart-rate-interval 900` and `health export`).
            resources: [.copy("Resources/sample-export.zip")],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel"], swiftSettings: strictSettings),
        .testTarget(name: "OpenHealthKitUITests", dependencies: ["OpenHealthKitUI"], swiftSettings: strictSettings),
        .testTarget(
            name: "HealthCLITests",
            dependencies: ["HealthCLI", "OpenHealthKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenHealthKitTests",
            dependencies: [
                "OpenHealthKit", "HealthStore", "HealthAPI", .product(name: "GRDB", package: "GRDB.swift"),
                // The health-card fuzz signs its own cards (ES256 over a raw-DEFLATE payload).
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        // The porting corpus: HealthKit client files compiled as app code is, with only the import swapped. Swift 6
        // language mode and nothing of `strictSettings`: apps do not enable ExistentialAny or InternalImportsByDefault.
        .testTarget(name: "PortingTests", dependencies: ["OpenHealthKit"], path: "Tests/PortingTests"),
    ],
    swiftLanguageModes: [.v6]
)
