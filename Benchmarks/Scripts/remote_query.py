#!/usr/bin/env python3
"""The remote HKHealthStore against the embedded one, in one run: the first 100 heart-rate samples of a week
(HKSampleQuery) from a year of the synthetic person, once with the store opened in the benchmark's process and once
through `health serve` over its Unix socket, as an app with its own token would.

Usage, from the repository root:
    swift build -c release --scratch-path .build-release --product health
    python3 Benchmarks/Scripts/remote_query.py .build-release/release/health

It makes the year store QueryBenchmarks uses ($OHK_BENCH_STORE, default /tmp/ohk-bench-year) with `health generate` if
it is not there, starts `health serve` on it, registers an app (the person approves it and lets it read heart rate and steps),
claims its token, and runs QueryBenchmarks' "First 100 heart-rate samples" and "Daily merged step totals for a year"
benchmarks, each embedded and remote, with the daemon's socket and the token in OHK_BENCH_SERVER and OHK_BENCH_TOKEN
(OHK_BENCH_FILTER picks other benchmarks).
"""
import os
import subprocess
import sys
import tempfile

from healthd import Daemon

health = os.path.abspath(sys.argv[1])
store = os.environ.get("OHK_BENCH_STORE", "/tmp/ohk-bench-year")
marker = os.path.join(store, "generated")   # QueryBenchmarks' sign that the store is whole
if not os.path.exists(marker):
    subprocess.run(["rm", "-rf", store], check=True)
    subprocess.run([health, "generate", "--days", "365", "--store", store], check=True, stdout=subprocess.DEVNULL)
    open(marker, "w").close()
os.chmod(marker, 0o600)   # the daemon serves only a store private to its user, every file included
folder = tempfile.mkdtemp(prefix="ohk-remote-")
socket = os.path.join(folder, "d.sock")
daemon = Daemon(health, store, socket)
try:
    token = daemon.connect("com.example.remote-reader", "Remote reader", [["heartRate", "--read", "allow"], ["stepCount", "--read", "allow"]])
    environment = dict(os.environ, OHK_BENCH_STORE=store, OHK_BENCH_SERVER=socket, OHK_BENCH_TOKEN=token)
    benchmarks = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    subprocess.run(["swift", "package", "--disable-sandbox", "benchmark", "--target", "QueryBenchmarks", "--filter", os.environ.get("OHK_BENCH_FILTER", "(First 100 heart-rate|Daily merged step totals for a year: HKStatistics).*")],
                   cwd=benchmarks, env=environment, check=True)
finally:
    daemon.stop()
