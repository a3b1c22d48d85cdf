#!/usr/bin/env python3
"""Writes a deterministic, synthetic VBB-like GTFS stop_times.txt.

Usage: make-stop-times.py [ROWS] [OUTPUT] [--seed N] [--feed DIR]

ROWS defaults to 5,000,000 (about 289 MB), OUTPUT to stop_times.txt. The same ROWS and seed always give
the same bytes: the generator uses its own seeded random.Random and only random(), whose
sequences are stable across Python 3 versions.

With --feed DIR the rows belong to that feed: trip ids are the ones of DIR/trips.txt, in file order, and stop
ids are drawn from the stops of DIR/stops.txt (location_type empty or 0); it stops after the last trip or at
ROWS rows, whichever comes first. Used to give the Berlin 2025 subset the stop_times.txt it lacks.

Rows look like VBB's 2025 feed: 9-digit trip ids, HH:MM:SS times that run past 24:00:00 for late trips
(about 6% of the rows), VBB stop ids (de:11000:900100003::2, a few de:11000:900120005:1:50), stop_sequence
from 0, pickup_type 1 at the last stop and drop_off_type 1 at the first (else 0), an empty stop_headsign;
LF line endings, about 57.8 bytes a row. Trips follow 6,000 route patterns, 1-3 trips per pattern in a row,
with random per-stop delays, so that gzip -6 compresses the file about 5.4:1 (5 M rows: 289 MB -> 53 MB),
like the real feed.
"""

import argparse
import csv
import random
import sys

HEADER = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,stop_headsign\n"
BLOCK_BYTES = 8 << 20  # flush in ~8 MiB blocks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows", nargs="?", type=int, default=5_000_000, help="data rows (default 5,000,000)")
    parser.add_argument("output", nargs="?", default="stop_times.txt", help="output path (default stop_times.txt)")
    parser.add_argument("--seed", type=int, default=20250601, help="random seed (default 20250601)")
    parser.add_argument("--feed", help="a GTFS directory whose trips.txt and stops.txt the rows refer to")
    args = parser.parse_args()
    if args.rows < 0:
        parser.error("rows must be >= 0")

    rng = random.Random(args.seed)
    rand = rng.random

    # Time strings for every second up to 30:00:00, formatted once.
    times = [f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}" for s in range(30 * 3600 + 1)]
    max_time = len(times) - 1

    # A pool of 42,000 stop ids, as in VBB: Berlin (11000) and Brandenburg districts, platform suffixes.
    districts = ["11000"] * 6 + ["12051", "12052", "12053", "12054", "12060", "12061", "12062", "12063",
                                 "12064", "12065", "12066", "12067", "12068", "12069", "12070", "12071",
                                 "12072", "12073"]
    stops = []
    for _ in range(42_000):
        district = districts[int(rand() * len(districts))]
        station = 900_000_000 + int(rand() * 400_000)
        if rand() < 0.07:
            stops.append(f"de:{district}:{station}:{1 + int(rand() * 9)}:{50 + int(rand() * 50)}")
        else:
            stops.append(f"de:{district}:{station}::{1 + int(rand() * 9)}")
    feed_trips = None
    if args.feed:
        stops = feed_column(args.feed, "stops.txt", "stop_id", lambda row: row.get("location_type", "") in ("", "0"))
        feed_trips = iter(feed_column(args.feed, "trips.txt", "trip_id"))
    # Route patterns as in a real feed: a fixed stop sequence with fixed run and dwell times, served by
    # many trips that differ only in their start time (the repetition gzip exploits).
    patterns = []
    for _ in range(6_000):
        length = 6 + int(rand() * 40)  # 6..45 stops, mean ~25
        first = int(rand() * max(1, len(stops) - length))
        step = 1 + int(rand() * 7)
        offset = 0
        rows = []
        for seq in range(length):
            dwell = 60 if rand() < 0.08 else 0
            stop = stops[(first + seq * step) % len(stops)]
            pickup = "1" if seq == length - 1 else "0"
            dropoff = "1" if seq == 0 else "0"
            rows.append((offset, offset + dwell, f",{stop},{seq},{pickup},{dropoff},\n"))
            offset += dwell + 60 * (1 + int(rand() * 3))
        patterns.append(rows)

    out = open(args.output, "w", encoding="ascii", newline="\n", buffering=1 << 20)
    out.write(HEADER)
    block = []
    block_bytes = 0
    written = 0
    trip_id = 171_000_000
    while written < args.rows:
        # A run of 1..3 trips of one pattern, every 5..30 minutes, with consecutive trip ids.
        pattern = patterns[int(rand() * len(patterns))]
        headway = 300 * (1 + int(rand() * 6))
        # First start between 04:00 and 24:30: late trips run past 24:00:00 (a few percent of the rows).
        start = 4 * 3600 + int(rand() * 20.5 * 3600) // 60 * 60
        trip_id += 1 + int(rand() * 50)
        lines = []
        for _ in range(1 + int(rand() * 2.5)):
            if written >= args.rows or start > 25 * 3600:
                break
            trip_id += 1
            trip = str(trip_id) if feed_trips is None else next(feed_trips, None)
            if trip is None:
                args.rows = written  # every trip of the feed has its rows
                break
            # Traffic: each stop may add a minute to the trip's running time.
            delay = 0
            for a, d, rest in pattern[: args.rows - written]:
                if rand() < 0.3:
                    delay += 60
                lines.append(f"{trip},{times[min(start + a + delay, max_time)]},"
                             f"{times[min(start + d + delay, max_time)]}{rest}")
                written += 1
            start += headway
        text = "".join(lines)
        block.append(text)
        block_bytes += len(text)
        if block_bytes >= BLOCK_BYTES:
            out.write("".join(block))
            block = []
            block_bytes = 0
    out.write("".join(block))
    out.close()
    return 0


def feed_column(directory, file_name, column, keep=lambda row: True):
    """The values of one column of a GTFS file, in file order, for the rows `keep` accepts."""
    with open(f"{directory}/{file_name}", newline="", encoding="utf-8-sig") as handle:
        return [row[column] for row in csv.DictReader(handle) if keep(row)]


if __name__ == "__main__":
    sys.exit(main())
