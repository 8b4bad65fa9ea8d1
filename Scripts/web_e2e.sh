#!/usr/bin/env bash
# The web Health app end to end in a real headless browser: Debian's chromium, driven through chromium-driver by
# selenium (PyPI), as the person signs in and answers an app's authorization request (Scripts/web_e2e.py says what it
# does and checks; Tests/HealthServerTests/WebBrowserTests.swift runs it against a daemon with an app waiting).
#
#   Scripts/web_e2e.sh --install                               installs selenium into .build-venv/selenium (once)
#   Scripts/web_e2e.sh URL SETUP_CODE SCREENSHOTS --steps N [web_e2e.py's options]
#                                                              drives the web app at URL (http://127.0.0.1:PORT)
#
# The browser and its driver are the system's (apt-get install chromium chromium-driver; .ci/run installs them), found
# on PATH or at $CHROMIUM and $CHROMEDRIVER: the script fails at once, saying so, when either is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/.build-venv/selenium"
version="4.51.0"

chromium="${CHROMIUM:-$(command -v chromium || true)}"
chromedriver="${CHROMEDRIVER:-$(command -v chromedriver || true)}"
missing=()
[ -n "$chromium" ] && [ -x "$chromium" ] || missing+=("chromium (Debian package chromium)")
[ -n "$chromedriver" ] && [ -x "$chromedriver" ] || missing+=("chromedriver (Debian package chromium-driver)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "web_e2e: FAILED: not installed: ${missing[*]}. Install them with: apt-get install chromium chromium-driver" >&2
    exit 2
fi

if ! "$venv/bin/python" -c "import sys, selenium; sys.exit(selenium.__version__ != '$version')" >/dev/null 2>&1; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium==$version" >&2
fi
[ "${1:-}" = "--install" ] && exit 0
[ $# -ge 3 ] || { echo "usage: Scripts/web_e2e.sh URL SETUP_CODE SCREENSHOTS --steps N [options] (or --install)" >&2; exit 64; }

# Selenium Manager (which would look for a browser and a driver online) is never needed: both paths are given.
export SE_OFFLINE=true
# exec: SIGTERM to this script reaches the Python process, which closes the browser on its way out.
exec "$venv/bin/python" -u Scripts/web_e2e.py "$@" --chromium "$chromium" --chromedriver "$chromedriver"
