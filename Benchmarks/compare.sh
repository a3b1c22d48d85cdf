#!/usr/bin/env bash
# Our tools side by side with what people would use instead, on the same page-cached inputs, in one run:
#   wc -l                          vs  lines --count                    (stop_times.txt, 5 M rows, 289 MB)
#   gzip -dc | wc -l               vs  lines --count                    (stop_times.txt.gz)
#   Python csv.reader              vs  parse-stop-times (typed StopTime records)
#   sqlite3 db ".import --csv"     vs  gtfs-import --table stop_times   (a fresh database each run)
#   pygtfs (gtfs2db append)        vs  gtfs-import                      (the Berlin 2025 subset zip plus a
#                                                                         generated stop_times.txt, see below)
# and writes a Markdown table of ratios, with the machine it ran on, to results/compare.md.
#
# pygtfs needs a stop_times.txt, which the 2025 subset lacks: the feed compared is
# data/vbb-2025-subset-stop-times.zip, SampleData/berlin/vbb-2025-subset.zip plus the rows that
# scripts/make-stop-times.py --feed writes for its 11,427 trips and its stops (made on first use).
# pygtfs is installed from PyPI into .venv/ (gitignored) on first use.
#
# Usage: Benchmarks/compare.sh [--runs N] [--import-runs N] [--no-build] [--out FILE]
#   --runs N         timed runs of each fast command, best kept (default 5, after 1 warm-up)
#   --import-runs N  timed runs of each import (default 3, no warm-up: every run starts from an empty database)
#   --no-build       reuse the release builds of lines, gtfs-import and parse-stop-times
#   --out FILE       the report (default results/compare.md)
# Needs data/ from scripts/make-data.sh, sqlite3, python3 with venv; hyperfine when installed (else a
# /usr/bin/time loop). Takes about 6 minutes on 2 cores.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
here="$bench/scripts"
root="$(cd "$bench/.." && pwd)"
data="$bench/data"
runs=5 import_runs=3 out="$bench/results/compare.md"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --import-runs) import_runs="$2"; shift 2 ;;
        --no-build) export NO_BUILD=1; shift ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

file="$data/stop_times.txt"
gz="$file.gz"
for f in "$file" "$gz"; do
    [[ -s $f ]] || { echo "compare.sh: missing $f: run Benchmarks/scripts/make-data.sh first" >&2; exit 1; }
done
command -v sqlite3 > /dev/null || { echo "compare.sh: sqlite3 missing (apt-get install -y sqlite3)" >&2; exit 1; }

source "$here/tools.sh"
lines="$(root_tool lines)"
import="$(root_tool gtfs-import)"
parser="$(bench_tool parse-stop-times)"

pygtfs_version=0.1.11
venv="$bench/.venv"
if [[ ! -x $venv/bin/gtfs2db ]]; then
    echo "installing pygtfs $pygtfs_version into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "pygtfs==$pygtfs_version" >&2
fi

feed="$data/vbb-2025-subset-stop-times.zip"
subset="$root/SampleData/berlin/vbb-2025-subset"
if [[ ! -s $feed ]]; then
    echo "writing $feed" >&2
    python3 "$here/make-stop-times.py" 10000000 "$data/stop_times-subset.tmp" --feed "$subset"
    python3 - "$subset.zip" "$data/stop_times-subset.tmp" "$feed" <<'PY'
import shutil, sys, zipfile
subset, stop_times, feed = sys.argv[1:]
shutil.copyfile(subset, feed + ".tmp")
with zipfile.ZipFile(feed + ".tmp", "a", zipfile.ZIP_DEFLATED) as archive:
    archive.write(stop_times, "stop_times.txt")
PY
    mv "$feed.tmp" "$feed"
    rm "$data/stop_times-subset.tmp"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
cat "$file" "$gz" "$feed" > /dev/null  # page cache

# Every pair must agree on what it counted before its times mean anything.
expected="$(wc -l < "$file")"
same() { # what got...
    [[ $2 == "$expected" ]] || { echo "compare.sh: $1 gave $2, wc -l $expected" >&2; exit 1; }
}
same "lines --count" "$("$lines" --count "$file")"
same "lines --count .gz" "$("$lines" --count "$gz")"
same "gzip -dc | wc -l" "$(gzip -dc "$gz" | wc -l)"
same "parse-stop-times (+ header)" "$(( $("$parser" "$file" | awk '{print $2}') + 1 ))"  # rows N rejected 0 …
same "csv.reader (+ header)" "$(( $(python3 "$here/python-csv-reader.py" "$file") + 1 ))"

# name <TAB> command [<TAB> preparation]
db="$work/db.sqlite"
fresh="rm -f '$db' '$db-wal' '$db-shm' '$db-journal'"
cat > "$work/fast.tsv" <<EOF
wc -l	wc -l '$file'
lines --count	'$lines' --count '$file'
gzip -dc | wc -l	gzip -dc '$gz' | wc -l
lines --count .gz	'$lines' --count '$gz'
Python csv.reader	python3 '$here/python-csv-reader.py' '$file'
parse-stop-times	'$parser' '$file'
EOF
cat > "$work/imports.tsv" <<EOF
sqlite3 .import --csv	sqlite3 '$db' '.import --csv $file stop_times'	$fresh
gtfs-import --table stop_times	'$import' --quiet --db '$db' --table stop_times '$file'	$fresh
pygtfs gtfs2db append	'$venv/bin/gtfs2db' append '$feed' '$db'	$fresh
gtfs-import (feed)	'$import' --quiet --db '$db' '$feed'	$fresh
EOF
fast_timer="$("$here/time-commands.sh" --runs "$runs" "$work/fast.tsv" "$work/fast.times.tsv")"
import_timer="$("$here/time-commands.sh" --runs "$import_runs" --warmup 0 "$work/imports.tsv" "$work/imports.times.tsv")"

# What each import stored, from a last run of each.
count() { sqlite3 "$db" "SELECT count(*) FROM stop_times"; }
sh -c "$fresh"; sqlite3 "$db" ".import --csv $file stop_times"; sqlite_rows=$(count)
sh -c "$fresh"; "$import" --quiet --db "$db" --table stop_times "$file" || [[ $? == 3 ]]; import_rows=$(count)
sh -c "$fresh"; "$venv/bin/gtfs2db" append "$feed" "$db" > /dev/null; pygtfs_stop_times=$(count)
sh -c "$fresh"; "$import" --quiet --json --db "$db" "$feed" > "$work/feed.json" || [[ $? == 3 ]]
feed_rows="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["rowsStored"])' "$work/feed.json")"
feed_stop_times=$(count)
[[ $sqlite_rows == $((expected - 1)) && $import_rows == "$sqlite_rows" && $pygtfs_stop_times == "$feed_stop_times" ]] || {
    echo "compare.sh: rows stored differ: sqlite3 $sqlite_rows, gtfs-import $import_rows; stop_times of the feed: pygtfs $pygtfs_stop_times, gtfs-import $feed_stop_times" >&2
    exit 1
}

cat "$work/fast.times.tsv" "$work/imports.times.tsv" > "$work/times.tsv"
mkdir -p "$(dirname "$out")"
{
    echo "# compare.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- machine: $("$here/machine.sh") (load average before: $load_before)"
    echo "- git $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(git -C "$root" --no-optional-locks status --porcelain -- "$root/Sources" "$root/Package.swift" 2>/dev/null | wc -l) uncommitted change(s) under Sources/ and Package.swift; SQLite $(sqlite3 --version | cut -d' ' -f1), Python $(python3 -c 'import platform; print(platform.python_version())'), pygtfs $pygtfs_version"
    echo "- inputs, page-cached: $(basename "$file") ($(stat -c %s "$file") bytes, $((expected - 1)) rows), $(basename "$gz") ($(stat -c %s "$gz") bytes), $(basename "$feed") ($(stat -c %s "$feed") bytes, $feed_rows rows of which $feed_stop_times stop_times)"
    echo "- timing: $fast_timer; imports: $import_timer, each into a new database"
    echo
    python3 - "$work/times.tsv" "$((expected - 1))" "$feed_rows" <<'PY'
import sys
times = {name: (float(best), float(mean)) for name, best, mean in (l.rstrip("\n").split("\t") for l in open(sys.argv[1]))}
rows, feed_rows = int(sys.argv[2]), int(sys.argv[3])
pairs = [  # task, what people use, ours, rows per run (for rows/s) or None
    ("count lines, 289 MB", "wc -l", "lines --count", None),
    ("count lines, gzip", "gzip -dc | wc -l", "lines --count .gz", None),
    ("parse stop_times.txt (5 M rows)", "Python csv.reader", "parse-stop-times", rows),
    ("stop_times.txt into SQLite", "sqlite3 .import --csv", "gtfs-import --table stop_times", rows),
    ("small feed into SQLite", "pygtfs gtfs2db append", "gtfs-import (feed)", feed_rows),
]
def code(text):
    return "`" + text.replace("|", "\\|") + "`"
print("| Task | usual tool | best s | ours | best s | ours vs usual |")
print("|---|---|---:|---|---:|---:|")
for task, theirs, ours, n in pairs:
    t, o = times[theirs][0], times[ours][0]
    rate = "" if n is None else f" ({n / t:,.0f} vs {n / o:,.0f} rows/s)"
    print(f"| {task} | {code(theirs)} | {t:.3f} | {code(ours)} | {o:.3f} | {t / o:.2f}x faster{rate} |"
          if t >= o else
          f"| {task} | {code(theirs)} | {t:.3f} | {code(ours)} | {o:.3f} | {t / o:.2f}x ({o / t:.2f}x slower){rate} |")
print()
print("Every command, best and mean of its runs:")
print()
print("| command | best s | mean s |")
print("|---|---:|---:|")
for name, (best, mean) in times.items():
    print(f"| {code(name)} | {best:.3f} | {mean:.3f} |")
PY
    echo
    echo "\`gtfs-import\` does more than \`sqlite3 .import\`: typed columns, the (trip_id, stop_sequence) key, the"
    echo "stop index and the reference checks, all inside the timed run. Rows stored: sqlite3 $sqlite_rows,"
    echo "gtfs-import $import_rows; on the feed, stop_times stored by pygtfs $pygtfs_stop_times, by gtfs-import $feed_stop_times."
} > "$work/report.md"
cp "$work/report.md" "$out"
cat "$out"
echo "wrote $out" >&2
