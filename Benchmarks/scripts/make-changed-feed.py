#!/usr/bin/env python3
"""Writes the next version of a GTFS zip feed in which a share of stop_times rows changed.

Usage: make-changed-feed.py IN.zip OUT.zip [--share 0.01] [--seed N]

Of the stop_times data rows, `share` are touched, deterministically (seeded): 40 % of them get their
arrival and departure one minute later (updated), 30 % are dropped (deleted), and for 30 % a new row is
added after them, in the same trip, with stop_sequence + 1,000,000 (inserted). Every other entry is
copied as it is (same bytes, so the same content hash). Prints the counts as JSON on standard output.
"""
import io
import json
import random
import sys
import zipfile


def shift(time):
    hours, minutes, seconds = (int(part) for part in time.split(":"))
    total = hours * 3600 + minutes * 60 + seconds + 60
    return "%02d:%02d:%02d" % (total // 3600, total // 60 % 60, total % 60)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    source, target = args[0], args[1]
    share = float(args[args.index("--share") + 1]) if "--share" in args else 0.01
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 20251121
    rng = random.Random(seed)
    counts = {"updated": 0, "deleted": 0, "inserted": 0, "rows": 0}
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as new:
        for info in old.infolist():
            if not info.filename.endswith("stop_times.txt"):
                new.writestr(info, old.read(info.filename), compress_type=info.compress_type)
                continue
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED  # ZipInfo's default is STORED
            with old.open(info) as raw, new.open(entry, "w", force_zip64=True) as out:
                reader = io.TextIOWrapper(raw, encoding="utf-8", newline="")
                writer = io.TextIOWrapper(out, encoding="utf-8", newline="")
                header = reader.readline()
                writer.write(header)
                ending = "\r\n" if header.endswith("\r\n") else "\n"
                columns = header.strip().split(",")
                arrival, departure, sequence = (columns.index(name) for name in ("arrival_time", "departure_time", "stop_sequence"))
                for line in reader:
                    counts["rows"] += 1
                    if rng.random() >= share:
                        writer.write(line)
                        continue
                    kind = rng.random()
                    cells = line.rstrip("\r\n").split(",")
                    if kind < 0.4 and cells[arrival] and cells[departure] and '"' not in line:
                        cells[arrival], cells[departure] = shift(cells[arrival]), shift(cells[departure])
                        writer.write(",".join(cells) + ending)
                        counts["updated"] += 1
                    elif kind < 0.7:
                        counts["deleted"] += 1
                    else:
                        writer.write(line)
                        if '"' not in line:
                            cells[sequence] = str(int(cells[sequence]) + 1_000_000)
                            writer.write(",".join(cells) + ending)
                            counts["inserted"] += 1
                writer.flush()
                writer.detach()
    json.dump(counts, sys.stdout)
    print()


if __name__ == "__main__":
    main()
