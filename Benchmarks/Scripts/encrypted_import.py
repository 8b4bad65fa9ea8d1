#!/usr/bin/env python3
"""Imports export.zip files with the release `health import` into a fresh plain store and into a fresh encrypted one
(`health init --encrypt` first, not measured), alternating, each import a child process measured the same way (wall
clock; CPU time and peak resident memory from wait4). The encrypted store is unlocked two ways: by its passphrase
(OPENHEALTHKIT_PASSPHRASE: scrypt at 2^17, about 0.4 s of each command) and by a key file (OPENHEALTHKIT_KEY_FILE:
no key derivation), so the pages' cost and the unlock's are told apart. Prints a Markdown table for BENCHMARKS.md.

Usage: encrypted_import.py HEALTH_BINARY EXPORT.zip[:RUNS] ...
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

PASSPHRASE = "a passphrase for the benchmark"


def run(command, environment=None):
    """Runs `command`; returns (wall seconds, CPU seconds, peak RSS in MB)."""
    env = dict(os.environ)
    env.pop("OPENHEALTHKIT_PASSPHRASE", None)
    env.pop("OPENHEALTHKIT_KEY_FILE", None)
    env.update(environment or {})
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        sys.exit(f"{' '.join(command)} failed: {process.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def measure(health, path, runs):
    results = {"plain": [], "passphrase": [], "key file": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_SCRATCH")) as scratch:
            results["plain"].append(run([health, "import", path, "--store", os.path.join(scratch, "plain")]))
            key_file = os.path.join(scratch, "store.keyfile")
            for name, unlock in [("passphrase", {"OPENHEALTHKIT_PASSPHRASE": PASSPHRASE}), ("key file", {"OPENHEALTHKIT_KEY_FILE": key_file})]:
                store = os.path.join(scratch, name.replace(" ", "-"))
                run([health, "init", "--encrypt", "--key-file", key_file, "--store", store], {"OPENHEALTHKIT_PASSPHRASE": PASSPHRASE})
                results[name].append(run([health, "import", path, "--store", store], unlock))
    return {name: (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows), max(r[2] for r in rows))
            for name, rows in results.items()}


def main():
    health = sys.argv[1]
    exports = [(a.rsplit(":", 1)[0], int(a.rsplit(":", 1)[1])) if ":" in a else (a, 3) for a in sys.argv[2:]]
    print("| export.zip | store | runs | wall clock (median) | CPU (median) | peak RSS (worst) | vs plain |")
    print("|---|---|---|---|---|---|---|")
    for path, runs in exports:
        figures = measure(health, path, runs)
        plain = figures["plain"][0]
        for name, label in [("plain", "plain"), ("key file", "encrypted, unlocked by a key file"),
                            ("passphrase", "encrypted, unlocked by its passphrase")]:
            wall, cpu, rss = figures[name]
            print(f"| {os.path.basename(path)} ({os.path.getsize(path) / 1e6:,.1f} MB) | {label} | {runs} | {wall:.2f} s | {cpu:.2f} s "
                  f"| {rss:.0f} MB | {wall / plain:.2f}× |")


if __name__ == "__main__":
    main()
