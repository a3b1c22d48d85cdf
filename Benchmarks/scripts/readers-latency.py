#!/usr/bin/env python3
"""The latency of the readers tools.sh's pg_readers and lite_readers logged, one Markdown row per store and
label: answers, errors, p50, p99, max (ms).
Usage: readers-latency.py FOLDER STORE:LABEL...   (STORE is sqlite or postgres)"""
import glob
import sys


def row(folder, store, label):
    ok, errors = [], 0
    if store == "postgres":
        for path in glob.glob(f"{folder}/pg-{label}*"):
            for line in open(path):
                # A transaction that failed (a deadlock or serialization error) is logged as "failed".
                if line.split()[2] == "failed":
                    errors += 1
                else:
                    ok.append(int(line.split()[2]) / 1000)
        errors += sum(line.count("aborted") for line in open(f"{folder}/pgbench-{label}.txt"))
    else:
        for line in open(f"{folder}/lite-{label}.log"):
            kind, micros = line.split()[:2]
            if kind == "ok":
                ok.append(int(micros) / 1000)
            else:
                errors += 1
    ok.sort()

    def pick(q):
        return ok[min(len(ok) - 1, int(q * len(ok)))] if ok else float("nan")

    return f"| {store} | {label} | {len(ok)} | {errors} | {pick(0.5):.1f} | {pick(0.99):.1f} | {ok[-1] if ok else float('nan'):.1f} |"


folder = sys.argv[1]
print("| store | while | answers | errors | p50 (ms) | p99 (ms) | max (ms) |")
print("|---|---|---|---|---|---|---|")
for pair in sys.argv[2:]:
    store, label = pair.split(":", 1)
    print(row(folder, store, label))
