#!/usr/bin/env bash
# Feeds from URLs (issue 36), both stores side by side: the synthetic feed (gtfs-synth --scale SCALE,
# default 1.0) served on 127.0.0.1 by Python's http.server (Last-Modified, 304 to If-Modified-Since).
#   1. In each of ROUNDS rounds (default 3), the stores alternating: a first import from the file, a first
#      import from its URL, and the URL again (304, not modified); wall seconds and peak RSS.
#   2. Readers: the busiest stop's board (one date, 20 rows) 20 times a second on each store, idle and while
#      gtfs-import lands: `--full` from the URL (`full`), `sync --once` whose file points the feed at its
#      1 %-changed version (`sync`), then a first import of another feed from its URL (`import`).
# Writes results/url-imports-SCALE.md and prints its tables.
# Usage: Benchmarks/scripts/url-imports.sh [SCALE] [ROUNDS]   (NO_BUILD=1 reuses the release build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
scale="${1:-1.0}" rounds="${2:-3}"
import="$(root_tool gtfs-import)"
feed="$(vbb_feed "$scale")"
changed="$(vbb_changed_feed "$scale")"
work=$(mktemp -d)
port=55438
uri="$(start_postgres "$work" 55437)"
mkdir "$work/www"
ln -s "$feed" "$work/www/feed.zip"
ln -s "$feed" "$work/www/other.zip"
ln -s "$changed" "$work/www/changed.zip"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/www" > "$work/http.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; stop_postgres "$work"; rm -rf "$work"' EXIT
sleep 1
site="http://127.0.0.1:$port"
sql() { PGOPTIONS="-c client_min_messages=warning" psql "$uri" -qAt -v ON_ERROR_STOP=1 -c "$1"; }
raw="$work/raw.txt"
out="$bench/results/url-imports-$scale.md"
cat "$feed" "$changed" > /dev/null  # page cache

timed() { timed_case "$work" "$@"; }
sqlite_round() {
    rm -f "$work"/a.sqlite*
    timed sqlite file "$import" --quiet --db "$work/a.sqlite" "$feed"
    rm -f "$work"/a.sqlite*
    timed sqlite url "$import" --quiet --db "$work/a.sqlite" "$site/feed.zip"
    timed sqlite not-modified "$import" --quiet --db "$work/a.sqlite" "$site/feed.zip"
}
postgres_round() {
    sql "DROP SCHEMA IF EXISTS a CASCADE"
    timed postgres file "$import" --quiet --db "$uri" --schema a "$feed"
    sql "DROP SCHEMA IF EXISTS a CASCADE"
    timed postgres url "$import" --quiet --db "$uri" --schema a "$site/feed.zip"
    timed postgres not-modified "$import" --quiet --db "$uri" --schema a "$site/feed.zip"
}
for round in $(seq "$rounds"); do
    if (( round % 2 == 1 )); then sqlite_round; postgres_round; else postgres_round; sqlite_round; fi
    echo "round $round of $rounds done" >&2
done

# Readers: the busiest stop's board on one date, 20 a second, on each store holding the feed.
stop=$(sql "SELECT stop_id FROM a.stop_times GROUP BY stop_id ORDER BY count(*) DESC, stop_id LIMIT 1")
board="SELECT trip_id, departure_time FROM arrivals_departures WHERE stop_id = '$stop' AND date = '2025-06-11' ORDER BY departure_time LIMIT 20"
echo "SET search_path = a; $board;" > "$work/board.sql"
seconds=$(python3 -c "import statistics; print(int(max(10, 1.5 * statistics.median(float(l.split()[2]) for l in open('$raw') if l.startswith('postgres url ')))))")
echo "[{\"name\": \"default\", \"url\": \"$site/changed.zip\"}]" > "$work/feeds.json"
with_readers() { # store label command...
    local store="$1" label="$2"
    shift 2
    if [[ $store == postgres ]]; then pg_readers "$work" 55437 "$seconds" "$label" & else lite_readers "$work" "$work/a.sqlite" "$board" "$seconds" "$label" & fi
    local readers=$!
    if (( $# > 0 )); then sleep 1; timed "$store" "$label-with-readers" "$@"; fi
    wait "$readers"
}
# The store holds one feed for --full and sync (the common case: a --full is then built aside), and a
# second one lands last. Autovacuum and checkpoints of the rounds settle before the idle readers.
sql "CHECKPOINT"
sleep 20
with_readers postgres idle
with_readers postgres full "$import" --quiet --full --db "$uri" --schema a "$site/feed.zip"
with_readers postgres sync "$import" sync "$work/feeds.json" --once --db "$uri" --schema a
with_readers postgres import "$import" --quiet --db "$uri" --schema a --feed other "$site/other.zip"
with_readers sqlite idle
with_readers sqlite full "$import" --quiet --full --db "$work/a.sqlite" "$site/feed.zip"
with_readers sqlite sync "$import" sync "$work/feeds.json" --once --db "$work/a.sqlite"
with_readers sqlite import "$import" --quiet --db "$work/a.sqlite" --feed other "$site/other.zip"

{
    echo "# Feeds from URLs, gtfs-synth --scale $scale served on 127.0.0.1, $rounds alternating rounds, $(date -u +%Y-%m-%d)"
    echo "# git $(git -C "$bench" rev-parse --short HEAD); $(bash "$here/machine.sh")"
} > "$out"
sed 's/^/    /' "$raw" >> "$out"
{
    echo
    python3 "$here/runs-table.py" "$raw" file file url not-modified full-with-readers sync-with-readers import-with-readers
    printf '\nReaders: the board of stop %s on 2025-06-11 (20 rows), 20 a second\n\n' "$stop"
    python3 "$here/readers-latency.py" "$work" sqlite:idle sqlite:full sqlite:sync sqlite:import \
    postgres:idle postgres:full postgres:sync postgres:import
} | tee -a "$out"
