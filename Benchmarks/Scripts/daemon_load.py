#!/usr/bin/env python3
"""Load on the daemon as apps make it: `health serve` (release build) on loopback TCP, an app connected as every app
is (registered, approved by the person, its token claimed), and wrk (Debian's package) sending requests over real
sockets. Side by side in one run, against the same daemon:
  - the floor: a request refused 401 (HTTP parsing, routing, middleware, a problem document; no store access);
  - the authorization status of one type: the token check and one read of the authorization database;
  - a small sample query (one step sample, newest first) as the app: token check, authorization, SQLite, JSON;
  - batched saves of 100 step samples per request (new UUIDs each time), atomic.
Prints a Markdown table (requests/s, p50, p99 from wrk's --latency) for BENCHMARKS.md.

Usage: daemon_load.py HEALTH_BINARY [SECONDS] [CONNECTIONS]
  HEALTH_BINARY  swift build -c release --product health; .build/release/health
"""
import os
import subprocess
import sys
import tempfile
import time

from healthd import Daemon, batched_save_script, wrk

health, seconds, connections = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20, int(sys.argv[3]) if len(sys.argv) > 3 else 32
folder = tempfile.mkdtemp(prefix="ohk-load-")
store = os.path.join(folder, "store")
subprocess.run([health, "generate", "--days", "30", "--store", store], check=True, stdout=subprocess.DEVNULL)
daemon = Daemon(health, store, os.path.join(folder, "d.sock"))
base = daemon.base
token = daemon.connect("com.example.load", "Load", [["stepCount", "--write", "allow", "--read", "allow"]])

scripts = {
    "refused 401 (floor: HTTP, routing, middleware; no store)": f"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{{"type":"HKQuantityTypeIdentifierStepCount","limit":1}}'
""",
    "authorization status (token check, one status read)": f"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer {token}"
wrk.body = '{{"types":["HKQuantityTypeIdentifierStepCount"]}}'
wrk.path = "/v1/authorization/status"
""",
    "small sample query (1 sample)": f"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer {token}"
wrk.body = '{{"type":"HKQuantityTypeIdentifierStepCount","limit":1,"ascending":false}}'
""",
    "batched save (100 samples per request)": batched_save_script(token),
}


rows = []
for name, script in scripts.items():
    path = os.path.join(folder, "script.lua")
    with open(path, "w") as file:
        file.write(script)
    rows.append((name, *wrk(path, base + "/v1/queries/samples", seconds, connections)))
    time.sleep(1)

daemon.stop()
print(f"wrk -t2 -c{connections} -d{seconds}s --latency, health serve --rate-limit 0, store of `health generate --days 30`\n")
print("| request | requests/s | p50 | p99 | non-2xx |")
print("|---|---|---|---|---|")
for name, rate, p50, p99, errors in rows:
    print(f"| {name} | {rate:,.0f} | {p50:.2f} ms | {p99:.2f} ms | {errors:,} |")
