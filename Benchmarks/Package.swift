// swift-tools-version: 6.1
// Benchmarks for OpenHealthKit, kept in their own package so the harness stays out of users'
// dependency graph. Run from this folder:
//   swift package --disable-sandbox benchmark
import Foundation
import PackageDescription

/// SwiftPM names a package found by path after its folder: the repository's, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "OpenHealthKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "UnitBenchmarks",
            dependencies: [
                .product(name: "OpenHealthKit", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/UnitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "OpenHealthKit", package: root),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "QueryBenchmarks",
            dependencies: [
                .product(name: "OpenHealthKit", package: root),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/QueryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ClinicalBenchmarks",
            dependencies: [
                .product(name: "OpenHealthKit", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ClinicalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
