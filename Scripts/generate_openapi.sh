#!/usr/bin/env bash
# Generates the daemon's API code (types, server stubs, client) from Sources/HealthAPI/openapi.json with
# swift-openapi-generator's command-line tool (built from Scripts/openapi into .build-openapi), into
# Sources/HealthAPI/Generated. With --check, generates into a temporary folder and fails if anything differs from what
# is committed (the regeneration test runs this).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Scripts/openapi --scratch-path .build-openapi --product swift-openapi-generator >&2
tool=".build-openapi/release/swift-openapi-generator"
if [ "${1:-}" = "--check" ]; then
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
    "$tool" generate Sources/HealthAPI/openapi.json --config Sources/HealthAPI/openapi-generator-config.yaml --output-directory "$out" >&2
    diff -r "$out" Sources/HealthAPI/Generated
    echo "Sources/HealthAPI/Generated is what openapi.json generates"
else
    "$tool" generate Sources/HealthAPI/openapi.json --config Sources/HealthAPI/openapi-generator-config.yaml --output-directory Sources/HealthAPI/Generated
fi
