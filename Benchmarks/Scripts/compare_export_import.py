#!/usr/bin/env python3
"""Imports one large export.xml with OpenHealthKit's `health import` and with the peer `healthkit-to-sqlite` (PyPI),
side by side in one run, alternating, each into a fresh store, each as a child process measured the same way (wall
time, peak resident memory from wait4). Prints a Markdown table for BENCHMARKS.md.

Usage: compare_export_import.py HEALTH_BINARY EXPORT.xml [RUNS]
  HEALTH_BINARY  the release build of `health` (swift build -c release --product health; .build/release/health)
  EXPORT.xml     e.g. made by scale_export.py from a real fixture
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(command):
    """Runs `command`; returns (seconds, peak RSS in MB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        sys.exit(f"{command[0]} failed: {process.stderr.read().decode()}")
    return seconds, usage.ru_maxrss / 1024


def main():
    health, export = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    size = os.path.getsize(export)
    with open(export, encoding="utf-8") as file:
        records = sum(len(re.findall(r"<Record ", line)) for line in file)
    peer = shutil.which("healthkit-to-sqlite")
    if not peer:
        sys.exit("healthkit-to-sqlite is not installed (pip install healthkit-to-sqlite)")
    results = {"OpenHealthKit `health import`": [], "healthkit-to-sqlite (peer)": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as scratch:
            results["OpenHealthKit `health import`"].append(run([health, "import", export, "--store", os.path.join(scratch, "store")]))
            results["healthkit-to-sqlite (peer)"].append(run([peer, export, os.path.join(scratch, "peer.db"), "--xml", "--silent"]))
    print(f"{size / 1e6:.1f} MB, {records:,} records, {runs} runs each, alternating; median wall time, worst peak RSS\n")
    print("| Importer | Wall time | MB/s | Records/s | Peak RSS |")
    print("|---|---|---|---|---|")
    medians = {}
    for name, samples in results.items():
        seconds = statistics.median(s for s, _ in samples)
        medians[name] = seconds
        peak = max(m for _, m in samples)
        print(f"| {name} | {seconds:.2f} s | {size / 1e6 / seconds:.1f} | {records / seconds:,.0f} | {peak:.0f} MB |")
    ours, theirs = medians["OpenHealthKit `health import`"], medians["healthkit-to-sqlite (peer)"]
    print(f"\nOpenHealthKit is {theirs / ours:.1f}x the peer's speed.")


if __name__ == "__main__":
    main()
