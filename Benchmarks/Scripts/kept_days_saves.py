#!/usr/bin/env python3
"""Batched saves through `health serve` once the charts' days are kept, with the store's triggers as migration v40
makes them (two index ranges) and, as the baseline in the same run, as v32 made them (one OR that SQLite runs as a scan
of every kept day of the type). The same binary serves both; only the three triggers on `sample` differ.

Each run copies one store of `health generate --days 30`, starts `health serve --rate-limit 0` on it, waits for its
start-up warm-up to keep the last year's days of every quantity type (`ChartDays.warmUp`), connects an app and runs wrk
(`-t2 -c32 --latency`) posting batches of 100 step samples (new UUIDs each time) to `/v1/objects`. The runs alternate,
v40 first. Prints a Markdown table for BENCHMARKS.md.

Usage: kept_days_saves.py HEALTH_BINARY [SECONDS] [ROUNDS]
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from healthd import Daemon, batched_save_script, wrk

health = sys.argv[1]
seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 15
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
folder = tempfile.mkdtemp(prefix="ohk-kept-")
pristine = os.path.join(folder, "pristine")
subprocess.run([health, "generate", "--days", "30", "--store", pristine], check=True, stdout=subprocess.DEVNULL)

# Migration v32's triggers, word for word.
V32_DROP = """DELETE FROM dailyStatistics WHERE typeCode = {row}.typeCode
    AND (day < 0 OR (day > {row}.startDate - 172800 AND day < {row}.endDate + 87000));"""
V32_KEPT = "EXISTS (SELECT 1 FROM dailyStatistics WHERE typeCode = {row}.typeCode)"
V32 = f"""
DROP TRIGGER dailyStatistics_sample_insert;
DROP TRIGGER dailyStatistics_sample_delete;
DROP TRIGGER dailyStatistics_sample_update;
CREATE TRIGGER dailyStatistics_sample_insert AFTER INSERT ON sample WHEN {V32_KEPT.format(row="NEW")} BEGIN {V32_DROP.format(row="NEW")} END;
CREATE TRIGGER dailyStatistics_sample_delete AFTER DELETE ON sample WHEN {V32_KEPT.format(row="OLD")} BEGIN {V32_DROP.format(row="OLD")} END;
CREATE TRIGGER dailyStatistics_sample_update AFTER UPDATE ON sample BEGIN {V32_DROP.format(row="OLD")} {V32_DROP.format(row="NEW")} END;
"""

def kept_days(store):
    with sqlite3.connect(f"file:{os.path.join(store, 'health.sqlite')}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM dailyStatistics WHERE day >= 0").fetchone()[0]


def run(triggers, index):
    store = os.path.join(folder, f"store-{index}")
    shutil.copytree(pristine, store)
    if triggers == "v32":
        with sqlite3.connect(os.path.join(store, "health.sqlite")) as db:
            db.executescript(V32)
    daemon = Daemon(health, store, os.path.join(folder, f"d-{index}.sock"))
    # The warm-up keeps the last year's days of each quantity type: wait until the count stops growing.
    last, steady = -1, 0
    while steady < 3:
        time.sleep(1)
        now = kept_days(store)
        steady = steady + 1 if now == last and now > 0 else 0
        last = now
    token = daemon.connect("com.example.load", "Load", [["stepCount", "--write", "allow", "--read", "allow"]])
    script = os.path.join(folder, "save.lua")
    with open(script, "w") as file:
        file.write(batched_save_script(token))
    rate, p50, p99, errors = wrk(script, daemon.base + "/v1/objects", seconds, 32)
    daemon.stop()
    shutil.rmtree(store)
    return triggers, last, rate, p50, p99, errors


rows = [run(triggers, index) for index, triggers in enumerate(["v40", "v32"] * rounds)]
print(f"wrk -t2 -c32 -d{seconds}s --latency, batches of 100 step samples, health serve --rate-limit 0 on a store of "
      "`health generate --days 30` after its warm-up\n")
print("| triggers | days kept | batches/s (samples/s) | p50 | p99 | non-2xx |")
print("|---|---|---|---|---|---|")
for triggers, days, rate, p50, p99, errors in rows:
    print(f"| {triggers} | {days:,} | {rate:,.0f} ({rate * 100:,.0f}) | {p50:.2f} ms | {p99:.2f} ms | {errors:,} |")
shutil.rmtree(folder)
