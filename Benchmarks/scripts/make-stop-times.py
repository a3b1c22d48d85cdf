#!/usr/bin/env python3
"""Writes a deterministic, synthetic VBB-like GTFS stop_times.txt.

Usage: make-stop-times.py [ROWS] [OUTPUT] [--seed N]

ROWS defaults to 5,000,000 (about 289 MB), OUTPUT to stop_times.txt. The same ROWS and seed always give
the same bytes: the generator uses its own seeded random.Random and only random() / getrandbits(), whose
sequences are stable across Python 3 versions.

Rows look like VBB's 2025 feed: 9-digit trip ids, HH:MM:SS times that run past 24:00:00 for late trips,
VBB stop ids (de:11000:900100003::2, a few de:11000:900120005:1:50), stop_sequence from 0, pickup and
drop-off types 0 (sometimes 1), an empty stop_headsign; LF line endings, about 58 bytes a row.
"""

import argparse
import random
import sys

HEADER = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,stop_headsign\n"
BLOCK_BYTES = 8 << 20  # flush in ~8 MiB blocks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows", nargs="?", type=int, default=5_000_000, help="data rows (default 5,000,000)")
    parser.add_argument("output", nargs="?", default="stop_times.txt", help="output path (default stop_times.txt)")
    parser.add_argument("--seed", type=int, default=20250601, help="random seed (default 20250601)")
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
    seqs = [str(i) for i in range(200)]

    out = open(args.output, "w", encoding="ascii", newline="\n", buffering=1 << 20)
    out.write(HEADER)
    block = []
    block_bytes = 0
    written = 0
    trip_id = 171_000_000
    while written < args.rows:
        trip_id += 1 + int(rand() * 3)
        trip = str(trip_id)
        # 6..45 stops per trip (mean ~25), a route of consecutive stops from the pool.
        length = min(6 + int(rand() * 40), args.rows - written)
        first = int(rand() * (len(stops) - length))
        step = 1 + int(rand() * 7)
        # Start between 04:00 and 24:30; late trips run past 24:00:00 (a few percent of the rows).
        t = 4 * 3600 + int(rand() * (20 * 3600 + 1800)) // 60 * 60
        lines = []
        for seq in range(length):
            dwell = 60 if rand() < 0.08 else 0
            pickup = "1" if seq == length - 1 else "0"
            dropoff = "1" if seq == 0 else "0"
            stop = stops[(first + seq * step) % len(stops)]
            arr = times[min(t, max_time)]
            dep = times[min(t + dwell, max_time)]
            lines.append(f"{trip},{arr},{dep},{stop},{seqs[seq]},{pickup},{dropoff},\n")
            t += dwell + 60 * (1 + int(rand() * 3))
        text = "".join(lines)
        block.append(text)
        block_bytes += len(text)
        written += length
        if block_bytes >= BLOCK_BYTES:
            out.write("".join(block))
            block = []
            block_bytes = 0
    out.write("".join(block))
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
