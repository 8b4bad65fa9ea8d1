#!/usr/bin/env python3
"""Imports export.zip files — what the iPhone hands people — with OpenHealthKit's `health import` and with the peer
`healthkit-to-sqlite` (PyPI), side by side in one run: alternating, each into a fresh store, each as a child process
measured the same way (wall clock; CPU time, user + system, and peak resident memory from wait4). Then the fixed cost
of a small import: a one-record export.zip, which is opening and creating the store, reading and the closing summary.
Prints Markdown tables for BENCHMARKS.md.

Usage: compare_export_import.py HEALTH_BINARY PEER_BINARY TINY.zip EXPORT.zip[:RUNS] ...
  HEALTH_BINARY  the release build of `health` (swift build -c release --product health; .build/release/health)
  PEER_BINARY    healthkit-to-sqlite (pip install healthkit-to-sqlite, in a venv)
  TINY.zip       Tests/Fixtures/made/export.zip (one record)
  EXPORT.zip     made by make_export_zip.py; :RUNS runs each (default 3)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile


def run(command):
    """Runs `command`; returns (wall seconds, CPU seconds, peak RSS in MB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        sys.exit(f"{' '.join(command)} failed: {process.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def xml_size(path):
    with zipfile.ZipFile(path) as archive:
        return next(i.file_size for i in archive.infolist() if i.filename.endswith("/export.xml"))


def measure(health, peer, path, runs):
    results = {"ours": [], "peer": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_SCRATCH")) as scratch:
            results["ours"].append(run([health, "import", path, "--store", os.path.join(scratch, "store")]))
            results["peer"].append(run([peer, path, os.path.join(scratch, "peer.db"), "--silent"]))
    return {name: (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows), max(r[2] for r in rows))
            for name, rows in results.items()}


def main():
    health, peer, tiny = sys.argv[1:4]
    exports = [(a.rsplit(":", 1)[0], int(a.rsplit(":", 1)[1])) if ":" in a else (a, 3) for a in sys.argv[4:]]
    print("| export.xml in the zip | importer | runs | wall clock (median) | CPU (median) | MB/s of export.xml | peak RSS (worst) | vs peer |")
    print("|---|---|---|---|---|---|---|---|")
    for path, runs in exports:
        size = xml_size(path)
        figures = measure(health, peer, path, runs)
        (ours_wall, ours_cpu, ours_rss), (peer_wall, peer_cpu, peer_rss) = figures["ours"], figures["peer"]
        label = f"{size / 1e6:,.0f} MB ({os.path.getsize(path) / 1e6:,.1f} MB zip)"
        print(f"| {label} | OpenHealthKit `health import` | {runs} | **{ours_wall:.2f} s** | {ours_cpu:.2f} s | **{size / 1e6 / ours_wall:.0f}** "
              f"| {ours_rss:.0f} MB | **{peer_wall / ours_wall:.1f}×** |")
        print(f"| {label} | healthkit-to-sqlite | {runs} | {peer_wall:.2f} s | {peer_cpu:.2f} s | {size / 1e6 / peer_wall:.1f} | {peer_rss:.0f} MB | 1× |")
        sys.stdout.flush()
    tiny_runs = 10
    figures = measure(health, peer, tiny, tiny_runs)
    print(f"\nFixed cost, a one-record export.zip ({tiny_runs} runs, median): OpenHealthKit {figures['ours'][0] * 1000:.0f} ms wall, "
          f"{figures['ours'][1] * 1000:.0f} ms CPU, {figures['ours'][2]:.0f} MB; healthkit-to-sqlite {figures['peer'][0] * 1000:.0f} ms wall, "
          f"{figures['peer'][1] * 1000:.0f} ms CPU, {figures['peer'][2]:.0f} MB.")


if __name__ == "__main__":
    main()
