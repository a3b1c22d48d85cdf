#!/usr/bin/env bash
# Incremental re-import against a full import, on the VBB-scale synthetic feed. Writes
# results/compare-incremental.md and prints it.
#  1. Full import of data/vbb-synth-1.0.zip (gtfs-synth --scale 1.0) as feed vbb into a fresh database.
#  2. The same zip again: every file's content hash matches, nothing is parsed or written.
#  3. data/vbb-synth-1.0-changed.zip (scripts/make-changed-feed.py: 1 % of stop_times rows updated, deleted or
#     inserted) applied to a copy of the database from step 1, against a full import of that version into a
#     fresh database; then every table of both databases is compared (EXCEPT both ways, without the feed column).
# Usage: Benchmarks/scripts/compare-incremental.sh [--runs N]   (NO_BUILD=1 reuses the release build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
runs=1
[[ "${1:-}" == "--runs" ]] && runs="$2"
source "$here/tools.sh"
import="$(root_tool gtfs-import)"
data="$bench/data"
feed="$(vbb_feed)"
changed="$(vbb_changed_feed)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$bench/results/compare-incremental.md"
cat "$feed" "$changed" > /dev/null  # page cache

seconds() { python3 -c "import json,sys; print('%.2f' % json.load(open(sys.argv[1]))['durationSeconds'])" "$1"; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
run_import() { # database input json
    # The previous step's writes (an import, a 1 GB copy of a database) are flushed first, so that their
    # writeback is not charged to this import.
    sync
    "$import" --quiet --json --feed vbb --db "$1" "$2" > "$3" || [[ $? == 3 ]]
}
best() { sort -n | head -1; }

full=() same=() diff=() fresh=()
for run in $(seq "$runs"); do
    rm -f "$work"/*.db*
    run_import "$work/a.db" "$feed" "$work/full.json"; full+=("$(seconds "$work/full.json")")
    cp "$work/a.db" "$work/b.db"
    run_import "$work/a.db" "$feed" "$work/same.json"; same+=("$(seconds "$work/same.json")")
    run_import "$work/b.db" "$changed" "$work/diff.json"; diff+=("$(seconds "$work/diff.json")")
    run_import "$work/c.db" "$changed" "$work/fresh.json"; fresh+=("$(seconds "$work/fresh.json")")
    echo "run $run: full ${full[-1]} s, same ${same[-1]} s, 1 % changed ${diff[-1]} s, its full import ${fresh[-1]} s" | tee -a "$work/runs.txt" >&2
done

# The incremental result against the fresh import, table by table.
mismatches=0
for table in $(sqlite3 "$work/c.db" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('gtfs_meta', 'grdb_migrations', 'feeds', 'feed_tables', 'imports') ORDER BY name"); do
    columns=$(sqlite3 "$work/c.db" "SELECT group_concat(name, ', ') FROM pragma_table_info('$table') WHERE name <> 'feed'")
    count=$(sqlite3 "$work/b.db" "ATTACH '$work/c.db' AS fresh;
        SELECT (SELECT count(*) FROM (SELECT $columns FROM main.$table EXCEPT SELECT $columns FROM fresh.$table))
             + (SELECT count(*) FROM (SELECT $columns FROM fresh.$table EXCEPT SELECT $columns FROM main.$table))
             + abs((SELECT count(*) FROM main.$table) - (SELECT count(*) FROM fresh.$table))")
    mismatches=$((mismatches + count))
done

f=$(printf '%s\n' "${full[@]}" | best)
s=$(printf '%s\n' "${same[@]}" | best)
d=$(printf '%s\n' "${diff[@]}" | best)
r=$(printf '%s\n' "${fresh[@]}" | best)
stop_times=$(python3 -c "import json,sys; t=[t for t in json.load(open(sys.argv[1]))['tables'] if t['table']=='stop_times'][0]; print('%d inserted, %d updated, %d deleted, %d unchanged' % (t['inserted'], t['updated'], t['deleted'], t['unchanged']))" "$work/diff.json")
{
    echo "Machine: $("$here/machine.sh"); best of $runs runs."
    echo
    echo "| Import into the database holding version 1 | seconds | full import of the same input | speed-up |"
    echo "|---|---:|---:|---:|"
    echo "| version 1 again (unchanged: every file's hash matches, nothing written) | $s | $f | $(python3 -c "print('%.1fx' % ($f / $s))") |"
    echo "| version 2: 1 % of stop_times changed ($stop_times) | $d | $r | $(python3 -c "print('%.2fx' % ($r / $d))") |"
    echo
    echo "Version 2 ($(cat "$data/vbb-synth-1.0-changed.json")) applied incrementally, against a fresh full import of it:"
    echo "$mismatches rows differ over all GTFS tables."
    echo
    echo "Every run (seconds):"
    echo
    sed 's/^/    /' "$work/runs.txt"
    echo
    echo "Phases of the last run's incremental import of version 2: hashing the files $(printf %.2f "$(field "$work/diff.json" hashSeconds)") s;"
    echo "parsing and staging stop_times with its diff $(printf %.2f "$(field "$work/diff.json" loadSeconds)") s, of which"
    echo "comparing and writing the differences $(printf %.2f "$(field "$work/diff.json" diffSeconds)") s;"
    echo "reference checks $(printf %.2f "$(field "$work/diff.json" integritySeconds)") s."
} > "$out"
cat "$out"
[[ $mismatches == 0 ]]
