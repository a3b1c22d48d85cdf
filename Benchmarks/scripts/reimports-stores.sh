#!/usr/bin/env bash
# Re-imports against a first import (issue 39), both stores side by side in one run: the synthetic feed
# (gtfs-synth --scale SCALE, default 1.0) and its next version with 1 % of stop_times changed
# (make-changed-feed.py), into SQLite and into a PostgreSQL server of its own, in each of ROUNDS rounds
# (default 3), the stores alternating which goes first:
#   first    the feed into a new database / a new schema
#   same     the same feed again
#   changed  the 1 %-changed version, incrementally
#   full     the first version again with --full (onto the changed one)
# Each command after a `sync`, timed with /usr/bin/time (wall seconds, peak RSS). Then readers: a
# departures board (the busiest stop, one date, 20 rows) asked 20 times a second, first on the idle store,
# then during a --full: PostgreSQL through pgbench (-R 20), SQLite through Python's sqlite3; their p50, p99,
# max and errors. Writes results/reimports-stores-SCALE.md and prints its tables.
# Usage: Benchmarks/scripts/reimports-stores.sh [SCALE] [ROUNDS]   (NO_BUILD=1 reuses the release build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
scale="${1:-1.0}" rounds="${2:-3}"
import="$(root_tool gtfs-import)"
feed="$(vbb_feed "$scale")"
changed="$(vbb_changed_feed "$scale")"
work=$(mktemp -d)
uri="$(start_postgres "$work" 55436)"
trap 'stop_postgres "$work"; rm -rf "$work"' EXIT
sql() { PGOPTIONS="-c client_min_messages=warning" psql "$uri" -qAt -v ON_ERROR_STOP=1 -c "$1"; }
raw="$work/raw.txt"
out="$bench/results/reimports-stores-$scale.md"
cat "$feed" "$changed" > /dev/null  # page cache

timed() { timed_case "$work" "$@"; }
sqlite_round() {
    rm -f "$work"/a.sqlite*
    timed sqlite first "$import" --quiet --db "$work/a.sqlite" "$feed"
    timed sqlite same "$import" --quiet --db "$work/a.sqlite" "$feed"
    timed sqlite changed "$import" --quiet --db "$work/a.sqlite" "$changed"
    timed sqlite full "$import" --quiet --full --db "$work/a.sqlite" "$feed"
}
postgres_round() {
    sql "DROP SCHEMA IF EXISTS a CASCADE"
    timed postgres first "$import" --quiet --db "$uri" --schema a "$feed"
    timed postgres same "$import" --quiet --db "$uri" --schema a "$feed"
    timed postgres changed "$import" --quiet --db "$uri" --schema a "$changed"
    timed postgres full "$import" --quiet --full --db "$uri" --schema a "$feed"
}
for round in $(seq "$rounds"); do
    if (( round % 2 == 1 )); then sqlite_round; postgres_round; else postgres_round; sqlite_round; fi
    echo "round $round of $rounds done" >&2
done

# Readers: the busiest stop's board on one date, 20 a second.
stop=$(sql "SELECT stop_id FROM a.stop_times GROUP BY stop_id ORDER BY count(*) DESC, stop_id LIMIT 1")
board_pg="SELECT trip_id, departure_time FROM a.arrivals_departures WHERE stop_id = '$stop' AND date = '2025-06-11' ORDER BY departure_time LIMIT 20;"
board_lite="SELECT trip_id, departure_time FROM arrivals_departures WHERE stop_id = '$stop' AND date = '2025-06-11' ORDER BY departure_time LIMIT 20"
echo "$board_pg" > "$work/board.sql"
seconds=$(python3 -c "import statistics,sys; print(int(max(10, 1.5 * statistics.median(float(l.split()[2]) for l in open('$raw') if l.startswith('postgres full')))))")
pg_readers "$work" 55436 "$seconds" idle
pg_readers "$work" 55436 "$seconds" full & readers=$!
sleep 1
timed postgres full-with-readers "$import" --quiet --full --db "$uri" --schema a "$changed"
wait "$readers"
lite_readers "$work" "$work/a.sqlite" "$board_lite" "$seconds" idle
lite_readers "$work" "$work/a.sqlite" "$board_lite" "$seconds" full & readers=$!
sleep 1
timed sqlite full-with-readers "$import" --quiet --full --db "$work/a.sqlite" "$changed"
wait "$readers"

{
    echo "# Re-imports against a first import, gtfs-synth --scale $scale, $rounds alternating rounds, $(date -u +%Y-%m-%d)"
    echo "# git $(git -C "$bench" rev-parse --short HEAD); $(bash "$here/machine.sh")"
} > "$out"
sed 's/^/    /' "$raw" >> "$out"
{
    echo
    python3 "$here/runs-table.py" "$raw" first first same changed full full-with-readers
    printf '\nReaders: the board of stop %s on 2025-06-11 (20 rows), 20 a second\n\n' "$stop"
    python3 "$here/readers-latency.py" "$work" sqlite:idle sqlite:full postgres:idle postgres:full
} | tee -a "$out"
