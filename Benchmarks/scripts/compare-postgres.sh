#!/usr/bin/env bash
# The PostgreSQL store side by side, on a server of its own (initdb into a temporary folder as the
# postgres user, a Unix socket there, default settings). Writes results/compare-postgres.md and prints it.
#  1. 5 M stop_times (data/stop_times.txt): gtfs-import --db postgresql://… against psql \copy of the same
#     rows already typed (times as seconds, data/stop_times-typed.csv) into the same table, plus its
#     primary key and stop index, in one transaction with the same maintenance_work_mem.
#  2. The VBB-scale feed (gtfs-synth --scale 1): a first import into PostgreSQL against one into SQLite.
#  3. Its next version with 1 % of stop_times changed, applied to each, and the same version again.
#  4. Ctrl-C: SIGINT at 15 moments of a VBB-scale import, the time to the process's exit
#     (postgres-cancel.py).
#  5. With --germany: the Germany-scale feed (gtfs-synth --scale 4) once into each: time, client peak RSS,
#     the server's disk for the schema and the SQLite file's size.
# Rounds alternate the sides; in step 1 they also take turns going first.
# Usage: compare-postgres.sh [--rounds N] [--germany]   (NO_BUILD=1 reuses builds)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
rounds=3 germany=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --germany) germany=1; shift ;;
        *) echo "compare-postgres.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
source "$here/tools.sh"
import="$(root_tool gtfs-import)"
synth="$(root_tool gtfs-synth)"
data="$bench/data"
feed="$(vbb_feed)"
changed="$(vbb_changed_feed)"
[[ -s $data/stop_times.txt ]] || "$here/make-data.sh" >&2

bin="${GTFS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}"
work=$(mktemp -d)
chmod 755 "$work"
mkdir "$work/server" && chown postgres "$work/server"
as_postgres() { runuser -u postgres -- "$@"; }
as_postgres "$bin/initdb" -D "$work/server/data" -U postgres -A trust -E UTF8 --locale=C > /dev/null
port=54340
as_postgres "$bin/pg_ctl" -D "$work/server/data" -l "$work/server/log" -w -o "-k $work/server -p $port -c listen_addresses=''" start > /dev/null
trap 'as_postgres "$bin/pg_ctl" -D "$work/server/data" -m immediate stop > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
uri="postgresql:///postgres?host=$work/server&port=$port&user=postgres"
sql() { psql "$uri" -qAt -v ON_ERROR_STOP=1 -c "$1"; }

# The typed copy of the 5 M rows as gtfs-import stores them: feed, the file's columns with times as
# seconds, and timepoint (1, exact, for an empty one); empty is NULL.
typed="$data/stop_times-typed.csv"
if [[ ! -s $typed ]]; then
    python3 - "$data/stop_times.txt" "$typed.tmp" <<'PY'
import csv, sys
def seconds(text):
    if not text: return ""
    h, m, s = text.split(":")
    return str(int(h) * 3600 + int(m) * 60 + int(s))
with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w", newline="") as target:
    rows = csv.reader(source)
    header = next(rows)
    at = {name: i for i, name in enumerate(header)}
    out = csv.writer(target, lineterminator="\n")
    for row in rows:
        out.writerow(["1", row[at["trip_id"]], seconds(row[at["arrival_time"]]), seconds(row[at["departure_time"]]), row[at["stop_id"]],
                      row[at["stop_sequence"]], row[at["pickup_type"]], row[at["drop_off_type"]], row[at["stop_headsign"]], "1"])
PY
    mv "$typed.tmp" "$typed"
fi
head -1 "$data/stop_times.txt" > "$work/stop_times.txt"   # header only: creates the tables for psql
cat "$data/stop_times.txt" "$typed" "$feed" "$changed" > /dev/null  # page cache

# Runs a command; prints its wall-clock seconds and peak RSS (MB). Exit status 3 (rejected rows) is fine.
timed() {
    sync
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null || [[ $? == 3 ]]
    awk '{ printf "%.2f %.1f\n", $1, $2 / 1024 }' "$work/time"
}
ratio() { python3 -c "import sys; print('%.2f×' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

echo "1/4: 5 M stop_times" >&2
ours=() base=() rss=()
run_ours() {
    sql "DROP SCHEMA IF EXISTS bench CASCADE"
    read -r seconds mb < <(timed "$import" --quiet --db "$uri" --schema bench "$data/stop_times.txt")
    ours+=("$seconds") rss+=("$mb")
    sql "DROP SCHEMA IF EXISTS bench CASCADE"
}
run_base() {
    sql "DROP SCHEMA IF EXISTS base CASCADE"
    "$import" --quiet --db "$uri" --schema base "$work/stop_times.txt"
    sql "ALTER TABLE base.stop_times DROP CONSTRAINT stop_times_pkey; DROP INDEX base.stop_times_stop"
    read -r seconds _ < <(timed psql "$uri" -qAt -1 -v ON_ERROR_STOP=1 -c "SET maintenance_work_mem = '256MB'" \
        -c "\\copy base.stop_times (feed, trip_id, arrival_time, departure_time, stop_id, stop_sequence, pickup_type, drop_off_type, stop_headsign, timepoint) FROM '$typed' (FORMAT csv)" \
        -c "ALTER TABLE base.stop_times ADD PRIMARY KEY (trip_id, stop_sequence, feed)" \
        -c "CREATE INDEX stop_times_stop ON base.stop_times (stop_id, departure_time)")
    base+=("$seconds")
    sql "DROP SCHEMA IF EXISTS base CASCADE"
}
# Odd rounds run gtfs-import first, even ones psql: neither side always follows the other.
for round in $(seq "$rounds"); do
    if (( round % 2 )); then run_ours; run_base; else run_base; run_ours; fi
done

echo "2/4: the VBB-scale feed" >&2
pg=() lite=() pgrss=()
for round in $(seq "$rounds"); do
    sql "DROP SCHEMA IF EXISTS gtfs CASCADE"
    read -r seconds mb < <(timed "$import" --quiet --db "$uri" "$feed")
    pg+=("$seconds") pgrss+=("$mb")
    rm -f "$work/vbb.sqlite"*
    read -r seconds _ < <(timed "$import" --quiet --db "$work/vbb.sqlite" "$feed")
    lite+=("$seconds")
done

echo "3/4: 1 % changed, and the same version again" >&2
pgc=() litec=() pgs=() lites=()
for round in $(seq "$rounds"); do
    sql "DROP SCHEMA IF EXISTS gtfs CASCADE"
    "$import" --quiet --db "$uri" "$feed"
    read -r seconds _ < <(timed "$import" --quiet --db "$uri" "$changed"); pgc+=("$seconds")
    read -r seconds _ < <(timed "$import" --quiet --db "$uri" "$changed"); pgs+=("$seconds")
    rm -f "$work/vbb.sqlite"*
    "$import" --quiet --db "$work/vbb.sqlite" "$feed"
    read -r seconds _ < <(timed "$import" --quiet --db "$work/vbb.sqlite" "$changed"); litec+=("$seconds")
    read -r seconds _ < <(timed "$import" --quiet --db "$work/vbb.sqlite" "$changed"); lites+=("$seconds")
done
pg_disk=$(sql "SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'gtfs' AND c.relkind IN ('r', 'm')")
echo "4/4: Ctrl-C" >&2
cancels=$(python3 "$here/postgres-cancel.py" "$import" "$uri" "$feed")

out="$bench/results/compare-postgres.md"
{
    echo "# The PostgreSQL store side by side"
    echo
    echo "$(date -u +%Y-%m-%d), commit $(git -C "$bench/.." rev-parse --short HEAD), PostgreSQL $("$bin/postgres" --version | awk '{print $3}')"
    echo "(a server of its own, default settings, Unix socket), $(nproc) cores. Seconds, wall clock, round by round."
    echo
    echo "## 5 M stop_times: gtfs-import against psql \\copy of pre-typed rows, key and index"
    echo
    echo "| Round | gtfs-import | psql \\copy + key + index | ratio | gtfs-import peak RSS |"
    echo "|---|---|---|---|---|"
    for i in "${!ours[@]}"; do echo "| $((i + 1)) | ${ours[$i]} | ${base[$i]} | $(ratio "${ours[$i]}" "${base[$i]}") | ${rss[$i]} MB |"; done
    echo
    echo "## The VBB-scale feed (11.4 M rows): PostgreSQL against SQLite"
    echo
    echo "| Round | PostgreSQL | SQLite | ratio | PostgreSQL client peak RSS |"
    echo "|---|---|---|---|---|"
    for i in "${!pg[@]}"; do echo "| $((i + 1)) | ${pg[$i]} | ${lite[$i]} | $(ratio "${pg[$i]}" "${lite[$i]}") | ${pgrss[$i]} MB |"; done
    echo
    echo "## 1 % of stop_times changed, then the same version again"
    echo
    echo "| Round | PostgreSQL, changed | SQLite, changed | PostgreSQL, same again | SQLite, same again |"
    echo "|---|---|---|---|---|"
    for i in "${!pgc[@]}"; do echo "| $((i + 1)) | ${pgc[$i]} | ${litec[$i]} | ${pgs[$i]} | ${lites[$i]} |"; done
    echo
    echo "The schema's tables and indexes after these: $pg_disk on the server."
    echo
    echo "## Ctrl-C during a VBB-scale import: SIGINT to the process's exit"
    echo
    echo "$cancels"
} > "$out"

if [[ $germany == 1 ]]; then
    echo "Germany scale" >&2
    germany_feed="$data/germany-synth-4.0.zip"
    [[ -s $germany_feed ]] || "$synth" --scale 4.0 --out "$germany_feed" >&2
    sql "DROP SCHEMA IF EXISTS gtfs CASCADE"
    read -r pg_seconds pg_mb < <(timed "$import" --quiet --db "$uri" "$germany_feed")
    disk=$(sql "SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'gtfs' AND c.relkind IN ('r', 'm')")
    database=$(sql "SELECT pg_size_pretty(pg_database_size('postgres'))")
    sql "DROP SCHEMA IF EXISTS gtfs CASCADE"
    rm -f "$work/de.sqlite"*
    read -r lite_seconds lite_mb < <(timed "$import" --quiet --db "$work/de.sqlite" "$germany_feed")
    lite_size=$(du -h "$work/de.sqlite" | cut -f1)
    {
        echo
        echo "## Germany scale (gtfs-synth --scale 4)"
        echo
        echo "| Store | seconds | client peak RSS | disk |"
        echo "|---|---|---|---|"
        echo "| PostgreSQL | $pg_seconds | $pg_mb MB | $disk (tables and indexes; database $database) |"
        echo "| SQLite | $lite_seconds | $lite_mb MB | $lite_size |"
    } >> "$out"
fi
cat "$out"
