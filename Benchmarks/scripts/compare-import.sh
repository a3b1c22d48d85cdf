#!/usr/bin/env bash
# The import, side by side and end to end. Writes results/compare-import.md and prints it.
#  1. stop_times.txt (5 M rows, 289 MB): `sqlite3 db ".import --csv"` against `gtfs-import` (fresh database each
#     run, file page-cached). gtfs-import's load phase (read + parse + insert) is compared with .import; its index
#     build and reference checks are reported separately. Also the same import into a store that exists already
#     (written through WAL; a new database is built aside without WAL).
#  2. Peak RSS of gtfs-import on stop_times.txt (289 MB) and stop_times-large.txt (1.73 GB, make-data.sh --large).
#  3. A VBB-scale synthetic feed (gtfs-synth --scale 1.0: 42 k stops, 250 k trips, 6 M stop_times, 5 M shape
#     points) end to end: parse + load + indexes + checks.
#  4. Time from cancel() to the end of the import, per phase, on that feed (import-cancel-latency).
# Usage: Benchmarks/scripts/compare-import.sh [--runs N]   (needs data/ from scripts/make-data.sh)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
runs=3
[[ "${1:-}" == "--runs" ]] && runs="$2"
data="$bench/data"
file="$data/stop_times.txt"
[[ -s $file ]] || { echo "compare-import.sh: missing $file: run scripts/make-data.sh first" >&2; exit 1; }
source "$here/tools.sh"
import="$(root_tool gtfs-import)"
latency="$(bench_tool import-cancel-latency)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$bench/results/compare-import.md"
rows=$(($(wc -l < "$file") - 1))
cat "$file" > /dev/null  # page cache

json_field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
best() { sort -n | head -1; }

# A store that exists before the import (created by a one-stop import): there the import writes through WAL.
# --full says what is measured: stop_times replaces the feed's table whole. (Without it the import is
# incremental, and a table the stored feed has no rows in is loaded the same way.)
printf 'stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\n' > "$work/stops.txt"

sqlite_times=() load_times=() total_times=() index_times=() check_times=() wal_load_times=() wal_total_times=()
for run in $(seq "$runs"); do
    rm -f "$work"/s.db*
    sync  # each timed run starts without the previous run's dirty pages
    start=$(date +%s.%N)
    sqlite3 "$work/s.db" ".import --csv $file stop_times"
    end=$(date +%s.%N)
    sqlite_times+=("$(echo "$end - $start" | bc)")
    rm -f "$work"/g.db* "$work"/s.db*
    sync
    "$import" --quiet --json --db "$work/g.db" "$file" > "$work/g.json" || [[ $? == 3 ]]
    load_times+=("$(json_field "$work/g.json" loadSeconds)")
    total_times+=("$(json_field "$work/g.json" durationSeconds)")
    index_times+=("$(json_field "$work/g.json" indexSeconds)")
    check_times+=("$(json_field "$work/g.json" integritySeconds)")
    rm -f "$work"/e.db*
    "$import" --quiet --db "$work/e.db" "$work/stops.txt"
    sync
    "$import" --quiet --json --full --db "$work/e.db" "$file" > "$work/e.json" || [[ $? == 3 ]]
    wal_load_times+=("$(json_field "$work/e.json" loadSeconds)")
    wal_total_times+=("$(json_field "$work/e.json" durationSeconds)")
    rm -f "$work"/e.db*
    echo "run $run: sqlite3 .import ${sqlite_times[-1]} s, gtfs-import load ${load_times[-1]} s of ${total_times[-1]} s; into an existing store ${wal_load_times[-1]} s of ${wal_total_times[-1]} s" >&2
done
sq=$(printf '%s\n' "${sqlite_times[@]}" | best)
ld=$(printf '%s\n' "${load_times[@]}" | best)
tt=$(printf '%s\n' "${total_times[@]}" | best)
ix=$(printf '%s\n' "${index_times[@]}" | best)
ck=$(printf '%s\n' "${check_times[@]}" | best)
wl=$(printf '%s\n' "${wal_load_times[@]}" | best)
wt=$(printf '%s\n' "${wal_total_times[@]}" | best)

rss() { "$here/peak-rss.sh" --runs 1 --prepare "rm -f '$work'/r.db*" -- "$import" --quiet --table stop_times --db "$work/r.db" "$1"; }
rss_small=$(rss "$file")
rss_large="(no $data/stop_times-large.txt: run make-data.sh --large)"
if [[ -s "$data/stop_times-large.txt" ]]; then rss_large=$(rss "$data/stop_times-large.txt"); fi

feed="$(vbb_feed)"
cat "$feed" > /dev/null
rm -f "$work"/v.db*
/usr/bin/time -f "%e %M" -o "$work/v.time" "$import" --quiet --json --db "$work/v.db" "$feed" > "$work/v.json" || [[ $? == 3 ]]
read -r v_wall v_rss < "$work/v.time"
v_rows=$(json_field "$work/v.json" rowsStored)
v_load=$(json_field "$work/v.json" loadSeconds)
v_index=$(json_field "$work/v.json" indexSeconds)
v_check=$(json_field "$work/v.json" integritySeconds)
v_total=$(json_field "$work/v.json" durationSeconds)
cancel=$("$latency" "$feed" "$work")

{
    echo "Machine: $("$here/machine.sh"); SQLite $(sqlite3 --version | cut -d' ' -f1) (system); best of $runs runs."
    echo
    echo "### stop_times.txt: $rows rows, $(($(stat -c %s "$file") / 1000000)) MB"
    echo
    echo "| Command | seconds | rows/s | ratio to sqlite3 .import |"
    echo "|---|---:|---:|---:|"
    python3 - "$rows" "$sq" "$ld" "$tt" "$wl" "$wt" <<'PY'
import sys
rows, sq, ld, tt, wl, wt = int(sys.argv[1]), *map(float, sys.argv[2:])
print(f"| `sqlite3 db \".import --csv stop_times.txt stop_times\"` | {sq:.2f} | {rows/sq:,.0f} | 1.00x |")
print(f"| `gtfs-import` load (read, parse, typed insert), new database | {ld:.2f} | {rows/ld:,.0f} | {sq/ld:.2f}x |")
print(f"| `gtfs-import` whole (load + indexes + reference checks + commit, flush and link), new database | {tt:.2f} | {rows/tt:,.0f} | {sq/tt:.2f}x |")
print(f"| `gtfs-import` load, into an existing store (WAL) | {wl:.2f} | {rows/wl:,.0f} | {sq/wl:.2f}x |")
print(f"| `gtfs-import` whole, into an existing store (WAL, checkpoint on commit) | {wt:.2f} | {rows/wt:,.0f} | {sq/wt:.2f}x |")
PY
    echo
    echo "Index build (stop_times_stop): $ix s; reference checks: $ck s (every row dangles here: the file comes without trips and stops)."
    echo
    echo "### Peak RSS of gtfs-import"
    echo
    echo "| Input | peak RSS (KB) |"
    echo "|---|---:|"
    echo "| stop_times.txt ($(($(stat -c %s "$file") / 1000000)) MB) | $rss_small |"
    echo "| stop_times-large.txt | $rss_large |"
    echo
    echo "### VBB-scale synthetic feed (gtfs-synth --scale 1.0, zip $(($(stat -c %s "$feed") / 1000000)) MB)"
    echo
    echo "| rows stored | load s | indexes s | reference checks s | whole import s | wall s | peak RSS (KB) |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    echo "| $v_rows | $(printf %.2f "$v_load") | $(printf %.2f "$v_index") | $(printf %.2f "$v_check") | $(printf %.2f "$v_total") | $v_wall | $v_rss |"
    echo
    echo "### cancel() to the end of the import, on that feed"
    echo
    echo '```'
    echo "$cancel"
    echo '```'
} > "$out"
cat "$out"
