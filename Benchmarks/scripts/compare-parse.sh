#!/usr/bin/env bash
# Side by side on the page-cached stop_times.txt: Python's csv.reader (lists of strings) against
# parse-stop-times (typed StopTime records through GTFS.TableParser). Prints a markdown table.
# Usage: Benchmarks/scripts/compare-parse.sh [--runs N]   (needs data/ from scripts/make-data.sh)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
runs=5
[[ "${1:-}" == "--runs" ]] && runs="$2"
file="$bench/data/stop_times.txt"
[[ -s $file ]] || { echo "compare-parse.sh: missing $file: run scripts/make-data.sh first" >&2; exit 1; }
source "$here/tools.sh"
tool="$(bench_tool parse-stop-times)"
rows=$(($(wc -l < "$file") - 1))
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat "$file" > /dev/null  # page cache
printf '%s\t%s\n' "Python \`csv.reader\`" "python3 '$here/python-csv-reader.py' '$file'" \
    "\`parse-stop-times\` (typed StopTime)" "'$tool' '$file'" > "$work/commands.tsv"
timer="$("$here/time-commands.sh" --runs "$runs" "$work/commands.tsv" "$work/times.tsv")"
echo "machine: $("$here/machine.sh"); $timer"
echo "rows: $rows"
python3 - "$work/times.tsv" "$rows" <<'PY'
import sys
rows = int(sys.argv[2])
results = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
print("| Command | best s | mean s | M rows/s (best) | ratio to csv.reader |")
print("|---|---:|---:|---:|---:|")
base = float(results[0][1])
for index, (name, best, mean) in enumerate(results):
    ratio = "" if index == 0 else f"{base / float(best):.2f}x"
    print(f"| {name} | {float(best):.3f} | {float(mean):.3f} | {rows / float(best) / 1e6:.2f} | {ratio} |")
PY
