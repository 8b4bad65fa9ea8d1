"""Server time of the web Health app's pages on a year of the synthetic person (issue 18's goal: every page under
200 ms on this machine), with the stylesheet (no store access) as the floor in the same run.

    python3 Benchmarks/Scripts/web_pages.py HEALTH [STORE] [ITERATIONS]

HEALTH is a release `health`; STORE (default /tmp/ohk-bench-year-web) is made with `health generate --days 365` when
missing. The script starts `health serve --port 0` on it, sets the person's passphrase on the first-run page (or signs
in with it), then fetches each page ITERATIONS times (default 10) after one warm-up over real loopback sockets, and
prints the server's own time (its `Server-Timing` header) and the client's wall clock, p50 and p90, and the server
time of the first view (the warm-up), which for a month's or a year's chart includes computing the days the store keeps
for it (`DailyStatistics`): on a store whose kept days were dropped (`DELETE FROM dailyStatistics`, or a new store) it is
the cost of a cold chart.
"""
import http.client
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse

PASSPHRASE = "benchmark passphrase"

def main():
    health = sys.argv[1]
    store = sys.argv[2] if len(sys.argv) > 2 else "/tmp/ohk-bench-year-web"
    iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    if not os.path.exists(os.path.join(store, "health.sqlite")):
        started = time.time()
        subprocess.run([health, "generate", "--days", "365", "--store", store], check=True, stdout=subprocess.DEVNULL)
        print(f"generated {store} in {time.time() - started:.0f} s", file=sys.stderr)
    socket = f"/tmp/ohk-web-bench-{os.getpid()}.sock"
    daemon = subprocess.Popen([health, "serve", "--store", store, "--socket", socket, "--port", "0", "--rate-limit", "0",
                               "--log-level", "error"], stdout=subprocess.PIPE, text=True)
    try:
        address = None
        while address is None:
            line = daemon.stdout.readline()
            if not line:
                sys.exit("health serve ended before listening")
            match = re.match(r"Health app: (\S+)", line)
            address = match.group(1) if match else None
        url = urllib.parse.urlsplit(address)
        connection = http.client.HTTPConnection(url.hostname, url.port)
        origin = f"http://{url.hostname}:{url.port}"
        def request(method, path, body=None, cookie=None):
            headers = {"Origin": origin}
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            if cookie:
                headers["Cookie"] = cookie
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            return response, data
        if "/setup" in address:
            code = urllib.parse.parse_qs(url.query)["code"][0]
            response, _ = request("POST", "/setup", urllib.parse.urlencode({"code": code, "passphrase": PASSPHRASE, "repeat": PASSPHRASE}))
        else:
            response, _ = request("POST", "/signin", urllib.parse.urlencode({"passphrase": PASSPHRASE, "next": "/"}))
        cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
        if response.status != 303 or not cookie:
            sys.exit(f"could not sign in (status {response.status}); the store's passphrase must be \"{PASSPHRASE}\"")
        # The last day with data, so every chart shows a full span.
        _, summary = request("GET", "/", cookie=cookie)
        pages = [
            ("stylesheet (floor: HTTP, routing, session; no store)", "/static/health.css"),
            ("Summary", "/"),
            ("Steps, day", "/types/HKQuantityTypeIdentifierStepCount?span=day"),
            ("Steps, week", "/types/HKQuantityTypeIdentifierStepCount?span=week"),
            ("Steps, month", "/types/HKQuantityTypeIdentifierStepCount?span=month"),
            ("Steps, year", "/types/HKQuantityTypeIdentifierStepCount?span=year"),
            ("Heart rate, day", "/types/HKQuantityTypeIdentifierHeartRate?span=day"),
            ("Heart rate, week", "/types/HKQuantityTypeIdentifierHeartRate?span=week"),
            ("Heart rate, month", "/types/HKQuantityTypeIdentifierHeartRate?span=month"),
            ("Heart rate, year", "/types/HKQuantityTypeIdentifierHeartRate?span=year"),
            ("Sleep, night (stages)", "/types/HKCategoryTypeIdentifierSleepAnalysis?span=day"),
            ("Sleep, month", "/types/HKCategoryTypeIdentifierSleepAnalysis?span=month"),
            ("Body mass, year", "/types/HKQuantityTypeIdentifierBodyMass?span=year"),
            ("Workouts", "/workouts"),
            ("Activity (rings of a week)", "/activity"),
            ("Requests", "/requests"),
            ("Sources", "/sources"),
            ("Records", "/records"),
            ("Me", "/me"),
            ("Medications (2 tracked, a year of doses)", "/medications"),
            ("Access log", "/access-log"),
            ("Deliveries", "/deliveries"),
            ("Import and export", "/import"),
        ]
        print("| page | first view (server) | server p50 | server p90 | wall p50 | bytes |")
        print("|---|---|---|---|---|---|")
        for name, path in pages:
            server, wall = [], []
            size = 0
            first = float("nan")
            for index in range(iterations + 1):
                started = time.perf_counter()
                response, data = request("GET", path, cookie=cookie)
                elapsed = (time.perf_counter() - started) * 1000
                if response.status != 200:
                    sys.exit(f"{path}: status {response.status}")
                timing = re.search(r"dur=([0-9.]+)", response.getheader("Server-Timing") or "")
                if index > 0:
                    server.append(float(timing.group(1)) if timing else float("nan"))
                    wall.append(elapsed)
                else:
                    first = float(timing.group(1)) if timing else float("nan")
                size = len(data)
            quantiles = lambda values: (statistics.median(values), sorted(values)[int(0.9 * (len(values) - 1))])
            s50, s90 = quantiles(server)
            w50, _ = quantiles(wall)
            print(f"| {name} | {first:.1f} ms | {s50:.1f} ms | {s90:.1f} ms | {w50:.1f} ms | {size:,} |")
    finally:
        daemon.terminate()
        daemon.wait()

main()
