#!/usr/bin/env bash
# Network-wide time windows (issue 35) on both stores, side by side in one run: imports a synthetic feed
# (gtfs-synth --scale SCALE, default 1.0: data/vbb-synth-1.0.zip) into SQLite and into a PostgreSQL server
# of its own, then times, warm, alternating the stores in each of ROUNDS rounds (default 5):
#   full pass    SELECT sum(departure_time) FROM stop_times
#   window       every departure of the network 2025-06-11 07:10-07:30 Berlin time, trips of earlier
#                days included, as docs/Database.md writes it (SQLite: the departure_time form on arrivals_departures_by_time;
#                PostgreSQL: arrivals_departures_in), three columns of every row read
#   connections  the same window of connections
# and reports medians, the ratio window / full pass, the rows, and each store's import time and size
# (results/network-windows-SCALE.md), and the medians in results/network-windows.csv for the chart
# (scripts/plot-svg.py windows results/network-windows.csv results/network-windows.svg).
# With BEFORE=path/to/gtfs-import, that build's import time and size too (imports alternate).
# Usage: Benchmarks/scripts/network-windows.sh [SCALE] [ROUNDS]   (NO_BUILD=1 reuses the release build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
scale="${1:-1.0}" rounds="${2:-5}"
import="$(root_tool gtfs-import)"
feed="$(vbb_feed "$scale")"
work=$(mktemp -d)
uri="$(start_postgres "$work" 55435)"
trap 'stop_postgres "$work"; rm -rf "$work"' EXIT
socket="$work/server"

import_into() { # tool label → "seconds bytes"
    local tool="$1" label="$2" seconds bytes
    seconds=$( { /usr/bin/time -f %e "$tool" --quiet --db "$work/$label.sqlite" "$feed" > /dev/null; } 2>&1 | tail -1)
    bytes=$(stat -c %s "$work/$label.sqlite")
    echo "sqlite $label $seconds $bytes"
    seconds=$( { /usr/bin/time -f %e "$tool" --quiet --db "$uri" --schema "$label" "$feed" > /dev/null; } 2>&1 | tail -1)
    bytes=$(psql -h "$socket" -p 55435 -U postgres -d postgres -Atc \
        "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '$label' AND c.relkind IN ('r', 'm')")
    echo "postgres $label $seconds $bytes"
}

t0="unixepoch('2025-06-11 05:10')" t1="unixepoch('2025-06-11 05:30')"
p0="extract(epoch FROM timestamptz '2025-06-11 05:10Z')::bigint" p1="extract(epoch FROM timestamptz '2025-06-11 05:30Z')::bigint"
sqlite_sql() { case "$1" in
    full) echo "SELECT sum(departure_time) FROM stop_times;" ;;
    window) echo "SELECT count(*), max(departure_local), max(stop_name), max(route_short_name) FROM arrivals_departures_by_time WHERE departure_time >= $t0 - day_start AND departure_time < $t1 - day_start;" ;;
    connections) echo "SELECT count(*), max(departure_local), max(to_stop_id), max(arrival) FROM connections_by_time WHERE departure_time >= $t0 - day_start AND departure_time < $t1 - day_start;" ;;
esac; }
postgres_sql() { case "$1" in
    full) echo "SELECT sum(departure_time) FROM head.stop_times;" ;;
    window) echo "SELECT count(*), max(departure_local), max(stop_name), max(route_short_name) FROM head.arrivals_departures_in($p0, $p1);" ;;
    connections) echo "SELECT count(*), max(departure_local), max(to_stop_id), max(arrival) FROM head.connections_in($p0, $p1);" ;;
esac; }
sqlite_time() { printf '.timer on\n%s\n' "$(sqlite_sql "$1")" | sqlite3 "$work/head.sqlite" | awk '/^Run Time/ { print $4 } !/^Run Time/ { print > "/dev/stderr" }'; }
postgres_time() {
    psql -h "$socket" -p 55435 -U postgres -d postgres -At -c '\timing on' -c "$(postgres_sql "$1")" |
        awk '/^Time:/ { printf "%.4f\n", $2 / 1000 } !/^Time:/ && !/^Timing/ { print > "/dev/stderr" }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

imports="$work/imports" rows="$work/rows"
{ [[ -n ${BEFORE:-} ]] && import_into "$BEFORE" base; import_into "$import" head; } > "$imports"
for query in full window connections; do
    for store in sqlite postgres; do "${store}_time" "$query" > /dev/null 2>&1; done # warm
    for ((round = 1; round <= rounds; round++)); do
        for store in sqlite postgres; do echo "$store $query $("${store}_time" "$query" 2> "$rows.$store.$query")"; done
    done
done > "$work/times"
{
    echo "# $(date -u +%Y-%m-%d), $(bash "$here/machine.sh")"
    echo "feed: gtfs-synth --scale $scale; window 2025-06-11 07:10-07:30 Europe/Berlin; median of $rounds warm runs, stores alternating"
    echo
    echo "| store | full pass | window | window / full | connections | connections / full | rows (window, connections) |"
    echo "|---|---|---|---|---|---|---|"
    for store in sqlite postgres; do
        full=$(awk -v s=$store '$1 == s && $2 == "full" { print $3 }' "$work/times" | median)
        window=$(awk -v s=$store '$1 == s && $2 == "window" { print $3 }' "$work/times" | median)
        connections=$(awk -v s=$store '$1 == s && $2 == "connections" { print $3 }' "$work/times" | median)
        printf '| %s | %.3f s | %.3f s | %.3f | %.3f s | %.3f | %s, %s |\n' "$store" "$full" "$window" "$(echo "$window / $full" | bc -l)" \
            "$connections" "$(echo "$connections / $full" | bc -l)" "$(cut -d'|' -f1 "$rows.$store.window")" "$(cut -d'|' -f1 "$rows.$store.connections")"
    done
    echo
    echo "| store | build | import | size |"
    echo "|---|---|---|---|"
    awk '{ printf "| %s | %s | %.2f s | %.0f MB |\n", $1, $2, $3, $4 / 1e6 }' "$imports"
} | tee "$bench/results/network-windows-$scale.md"

# The medians as CSV rows of this scale (the other scale's rows kept), for plot-svg.py windows.
csv="$bench/results/network-windows.csv" stop_times=$(sqlite3 "$work/head.sqlite" "SELECT count(*) FROM stop_times")
{
    echo "# $(date -u +%Y-%m-%d), git $(git -C "$bench" rev-parse --short HEAD), $(bash "$here/machine.sh")"
    echo "scale,stop_times,store,query,seconds"
    [[ -f $csv ]] && grep -v '^#' "$csv" | grep -v '^scale,' | awk -F, -v s="$scale" '$1 != s'
    for store in sqlite postgres; do
        for query in full window connections; do
            echo "$scale,$stop_times,$store,$query,$(awk -v s=$store -v q=$query '$1 == s && $2 == q { print $3 }' "$work/times" | median)"
        done
    done
} > "$csv.new" && mv "$csv.new" "$csv"
