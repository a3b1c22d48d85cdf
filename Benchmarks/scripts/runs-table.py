#!/usr/bin/env python3
"""The runs timed_case (tools.sh) logged, as a Markdown table: per store and case the seconds of each run,
their median, the median against the base case's, and the largest peak RSS.
Usage: runs-table.py RAW BASE CASE...   (the cases in the order shown; the base among them)"""
import statistics
import sys

raw, base, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = {}
for line in open(raw):
    store, case, seconds, rss = line.split()
    runs.setdefault((store, case), []).append((float(seconds), int(rss)))
print(f"| store | case | seconds | median | / {base} | peak RSS (MB) |")
print("|---|---|---|---|---|---|")
for store in ["sqlite", "postgres"]:
    reference = statistics.median(s for s, _ in runs[(store, base)])
    for case in cases:
        if (store, case) not in runs:
            continue
        values = runs[(store, case)]
        median = statistics.median(s for s, _ in values)
        print(f"| {store} | {case} | {' / '.join('%.2f' % s for s, _ in values)} | {median:.2f} | "
              f"{median / reference:.3f} | {max(r for _, r in values) / 1024:.1f} |")
