#!/usr/bin/env bash
# GTFS-Realtime (issue 37), both stores side by side: the synthetic feed (gtfs-synth --scale SCALE, default
# 1.0) imported once into each store, and a TripUpdates message for the trips running in a morning hour:
# every trip that starts 06:00–08:00 (gtfs-synth realtime; an update for every stop), made at 06:00 that
# day; applied with --max-age none (the date is in the past). Each poll reads one source, poll.pb, as a
# publisher's URL would serve it: the message, the same again, then its 10 %-changed version.
#   1. In each of ROUNDS rounds (default 3), the stores alternating, the realtime state emptied first: the
#      message applied for the first time, the same bytes again, then the message with 10 % of its trips
#      changed (gtfs-synth realtime --changed-percent 10); wall seconds, peak RSS, rows written.
#   2. Boards: realtime-boards, 100 stations' one-hour boards with and without --realtime, alternating.
# Writes results/realtime-SCALE.md and prints its tables.
# Usage: Benchmarks/scripts/realtime.sh [SCALE] [ROUNDS]   (NO_BUILD=1 reuses the release builds)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
scale="${1:-1.0}" rounds="${2:-3}"
import="$(root_tool gtfs-import)"
synth="$(root_tool gtfs-synth)"
boards="$(bench_tool realtime-boards)"
feed="$(vbb_feed "$scale")"
date=2025-06-11 hour=7 first=06:00:00
work=$(mktemp -d)
uri="$(start_postgres "$work" 55439)"
trap 'stop_postgres "$work"; rm -rf "$work"' EXIT
sql() { PGOPTIONS="-c client_min_messages=warning" psql "$uri" -qAt -v ON_ERROR_STOP=1 -c "$1"; }
raw="$work/raw.txt"
out="$bench/results/realtime-$scale.md"
# Run in the work folder with relative outputs, so that the results name no path of this machine.
(cd "$work" && "$synth" realtime --feed "$feed" --date "${date//-/}" --from $first --to 0$((hour + 1)):00:00 \
    --out trips.pb 2> synth.txt)
(cd "$work" && "$synth" realtime --feed "$feed" --date "${date//-/}" --from $first --to 0$((hour + 1)):00:00 \
    --changed-percent 10 --out trips-10.pb 2>> synth.txt)
"$import" --quiet --db "$work/a.sqlite" "$feed"
"$import" --quiet --db "$uri" --schema a "$feed"
sql "VACUUM ANALYZE"

# A case's line of output: the wall seconds, peak RSS and the summary line's rows written.
applied() { # store case message
    local store="$1" case="$2" message="$3" db=(--db "$work/a.sqlite")
    [[ $store == postgres ]] && db=(--db "$uri" --schema a)
    cp "$message" "$work/poll.pb"
    sync
    /usr/bin/time -f "%e %M" -o "$work/time" "$import" realtime "$work/poll.pb" "${db[@]}" --max-age none > "$work/line" 2> "$work/stderr" \
        || { cat "$work/stderr" "$work/line" >&2; echo "realtime.sh: $store $case failed" >&2; exit 1; }
    local rows
    rows=$(grep -oE '[0-9,]+ rows written' "$work/line" | tr -d , | cut -d' ' -f1 || true)
    echo "$store $case $(tail -1 "$work/time") ${rows:-0}" >> "$raw"
}
empty() { # store
    local tables="realtime_sources realtime_entities realtime_trip_updates realtime_stop_time_updates realtime_predictions"
    tables+=" realtime_vehicles realtime_alerts realtime_alert_periods realtime_alert_entities realtime_alert_texts"
    if [[ $1 == postgres ]]; then
        sql "TRUNCATE $(echo "$tables" | sed 's/\([a-z_]*\)/a.\1/g; s/ /, /g')"
        sql "VACUUM ANALYZE"
    else
        for table in $tables; do sqlite3 "$work/a.sqlite" "DELETE FROM $table"; done
        sqlite3 "$work/a.sqlite" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
    fi
}
store_round() { # store
    empty "$1"
    applied "$1" first "$work/trips.pb"
    applied "$1" same "$work/trips.pb"
    applied "$1" changed-10 "$work/trips-10.pb"
}
for round in $(seq "$rounds"); do
    if (( round % 2 == 1 )); then store_round sqlite; store_round postgres; else store_round postgres; store_round sqlite; fi
    echo "round $round of $rounds done" >&2
done
# The boards read the state the last round left: the 10 %-changed message applied.
"$boards" "$work/a.sqlite" "$date" "$hour" > "$work/boards-sqlite.txt"
"$boards" "$uri" --schema a "$date" "$hour" > "$work/boards-postgres.txt"

{
    echo "# GTFS-Realtime, gtfs-synth --scale $scale, TripUpdates of the trips starting $date $first–0$((hour + 1)):00, $rounds alternating rounds, $(date -u +%Y-%m-%d)"
    echo "# git $(git -C "$bench" rev-parse --short HEAD); $(bash "$here/machine.sh")"
    echo "# messages: $(tr '\n' ' ' < "$work/synth.txt")"
    echo "# $(stat -c %s "$work/trips.pb") and $(stat -c %s "$work/trips-10.pb") bytes"
} > "$out"
sed 's/^/    /' "$raw" >> "$out"
{
    echo
    python3 - "$raw" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    store, case, seconds, rss, rows = line.split()
    runs.setdefault((store, case), []).append((float(seconds), int(rss), int(rows)))
print("| Store | Case | Median s | Min–max s | / first | Peak RSS MB | Rows written |")
print("|---|---|---|---|---|---|---|")
for store in ("sqlite", "postgres"):
    first = statistics.median(s for s, _, _ in runs[(store, "first")])
    for case in ("first", "same", "changed-10"):
        values = runs[(store, case)]
        seconds = [s for s, _, _ in values]
        median = statistics.median(seconds)
        print(f"| {store} | {case} | {median:.2f} | {min(seconds):.2f}–{max(seconds):.2f} | {median / first:.3f} | "
              f"{max(r for _, r, _ in values) / 1024:.1f} | {values[-1][2]:,} |")
PY
    echo
    echo "Boards (realtime-boards: 100 stations, one hour, alternating):"
    echo
    sed 's/^/    /' "$work/boards-sqlite.txt" "$work/boards-postgres.txt"
} | tee -a "$out"
