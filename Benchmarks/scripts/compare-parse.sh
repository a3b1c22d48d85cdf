#!/usr/bin/env bash
# Side by side on the page-cached stop_times.txt: Python's csv.reader (lists of strings) against
# parse-stop-times (typed StopTime records through GTFS.TableParser). Prints a markdown table.
# Usage: Benchmarks/scripts/compare-parse.sh [--runs N]   (needs data/ from scripts/make-data.sh, hyperfine)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
runs=5
[[ "${1:-}" == "--runs" ]] && runs="$2"
file="$bench/data/stop_times.txt"
[[ -s $file ]] || { echo "compare-parse.sh: missing $file: run scripts/make-data.sh first" >&2; exit 1; }
(cd "$bench" && swift build -c release --product parse-stop-times >&2)
tool="$bench/.build/release/parse-stop-times"
python="$bench/scripts/python-csv-reader.py"
rows=$(($(wc -l < "$file") - 1))
json=$(mktemp)
hyperfine -N --warmup 1 --runs "$runs" --export-json "$json" "python3 $python $file" "$tool $file" >&2
python3 - "$json" "$rows" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
rows = int(sys.argv[2])
py, swift = results
def line(name, r, base=None):
    best = min(r["times"])
    rate = rows / best / 1e6
    ratio = "" if base is None else f"{rate / (rows / min(base['times']) / 1e6):.2f}x"
    print(f"| {name} | {best:.3f} | {r['mean']:.3f} | {rate:.2f} | {ratio} |")
print(f"rows: {rows}")
print("| Command | best s | mean s | M rows/s (best) | ratio to csv.reader |")
print("|---|---:|---:|---:|---:|")
line("Python `csv.reader`", py)
line("`parse-stop-times` (typed StopTime)", swift, py)
PY
rm -f "$json"
