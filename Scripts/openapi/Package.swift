// swift-tools-version: 6.1
// Builds swift-openapi-generator's command-line tool, at the version the committed code was made with, for
// Scripts/generate_openapi.sh. Nothing here is part of OpenHealthKit's build.
import PackageDescription

let package = Package(
    name: "openapi-tool",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: []
)
