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
import re
import subprocess
import sys
import tempfile
import time

from healthd import Daemon

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
    "batched save (100 samples per request)": f"""
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local samples = {{}}
  for i = 1, 100 do
    samples[i] = string.format('{{"uuid":"%08X-0000-4000-8000-%012X","type":"HKQuantityTypeIdentifierStepCount",' ..
      '"startDate":"2026-11-20T10:00:00Z","endDate":"2026-11-20T10:01:00Z","quantity":{{"value":%d,"unit":"count"}}}}',
      tid, counter * 100 + i, i)
  end
  return wrk.format("POST", "/v1/objects", {{["Content-Type"] = "application/json", ["Authorization"] = "Bearer {token}"}},
    '{{"samples":[' .. table.concat(samples, ",") .. ']}}')
end
""",
}


def duration(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s|m)$", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}[unit]


rows = []
for name, script in scripts.items():
    path = os.path.join(folder, "script.lua")
    with open(path, "w") as file:
        file.write(script)
    output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", path, base + "/v1/queries/samples"],
                            check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p50 = duration(re.search(r"^\s+50%\s+(\S+)", output, re.MULTILINE).group(1))
    p99 = duration(re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    rows.append((name, rate, p50, p99, int(errors.group(1)) if errors else 0))
    time.sleep(1)

daemon.stop()
print(f"wrk -t2 -c{connections} -d{seconds}s --latency, health serve --rate-limit 0, store of `health generate --days 30`\n")
print("| request | requests/s | p50 | p99 | non-2xx |")
print("|---|---|---|---|---|")
for name, rate, p50, p99, errors in rows:
    print(f"| {name} | {rate:,.0f} | {p50:.2f} ms | {p99:.2f} ms | {errors:,} |")
