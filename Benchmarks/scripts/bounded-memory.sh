#!/usr/bin/env bash
# Peak memory where the input makes one thing huge (issue 33): an incremental import of a trip of a
# million stop times with one row changed, then cut to ten; a shape of a million points with one changed;
# and the departure board of a week of four trips every second (2.4 M rows), cut at its default limit and
# printed whole as text and JSON. Each command after a `sync`, timed with /usr/bin/time (wall seconds,
# peak RSS kB). Usage: Benchmarks/scripts/bounded-memory.sh [BEFORE-COMMIT]   (NO_BUILD=1 reuses the
# release build). With a commit, its release build (in a worktree of its own in $TMPDIR, as
# compare-builds.sh makes it) runs the same cases first. Writes results/bounded-memory.txt and prints it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
builds=("after $(root_tool gtfs-import) $(root_tool gtfs-query)")
if [[ -n ${1:-} ]]; then
    commit="$(git -C "$bench" rev-parse --short "$1")"
    tree="${TMPDIR:-/tmp}/gtfs-lines-build-$commit"
    [[ -d $tree ]] || git -C "$bench" worktree add --detach "$tree" "$commit" >&2
    (cd "$tree" && swift build -c release --product gtfs-import >&2 && swift build -c release --product gtfs-query >&2)
    bin="$(cd "$tree" && swift build -c release --show-bin-path)"
    builds=("before-$commit $bin/gtfs-import $bin/gtfs-query" "${builds[@]}")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$bench/results/bounded-memory.txt"
echo "# $(date -u +%Y-%m-%d), git $(git -C "$bench" rev-parse --short HEAD), $(bash "$here/machine.sh")" | tee "$out"
echo "# build case seconds peak-RSS-kB exit-status" | tee -a "$out"
timed() { # label command...
    local label="$build $1"
    shift
    sync
    local status=0
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || status=$?
    echo "$label $(tail -1 "$work/time") $status" | tee -a "$out"
}
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def stop_times(path, rows, changed=None):
    with open(path, "w") as f:
        f.write("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n")
        for s in range(1, rows + 1):
            t = 6 * 3600 + s % 3600 + (10 if s == changed else 0)
            hms = "%02d:%02d:%02d" % (t // 3600, t // 60 % 60, t % 60)
            f.write(f"T,{hms},{hms},S{s % 100},{s}\n")
def shapes(path, points, changed=None):
    with open(path, "w") as f:
        f.write("shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n")
        for s in range(1, points + 1):
            f.write(f"SH,{52 + s / 1e7 + (0.001 if s == changed else 0):.7f},{13 + s / 1e7:.7f},{s}\n")
stop_times(f"{work}/trip1.txt", 1_000_000)
stop_times(f"{work}/trip2.txt", 1_000_000, changed=500_000)
stop_times(f"{work}/trip3.txt", 10)
shapes(f"{work}/shape1.txt", 1_000_000)
shapes(f"{work}/shape2.txt", 1_000_000, changed=500_000)
feed = f"{work}/freq"
import os
os.makedirs(feed)
files = {
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.com,Europe/Berlin\n",
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,Two,52.6,13.5\n",
    "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,F1,3\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nW,1,1,1,1,1,1,1,20250101,20251231\n",
    "trips.txt": "route_id,service_id,trip_id,trip_headsign\n" + "".join(f"R,W,T{t},Two\n" for t in range(1, 5)),
    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        + "".join(f"T{t},00:00:00,00:00:00,S1,1\nT{t},00:05:00,00:05:00,S2,2\n" for t in range(1, 5)),
    "frequencies.txt": "trip_id,start_time,end_time,headway_secs\n" + "".join(f"T{t},00:00:00,24:00:00,1\n" for t in range(1, 5)),
}
for name, text in files.items():
    open(f"{feed}/{name}", "w").write(text)
PY
for entry in "${builds[@]}"; do
    read -r build import query <<< "$entry"
    rm -f "$work"/*.sqlite*
    timed trip-first "$import" --quiet --db "$work/trip.sqlite" --table stop_times "$work/trip1.txt"
    timed trip-one-changed "$import" --quiet --db "$work/trip.sqlite" --table stop_times "$work/trip2.txt"
    timed trip-cut-to-10 "$import" --quiet --db "$work/trip.sqlite" --table stop_times "$work/trip3.txt"
    timed shape-first "$import" --quiet --db "$work/shape.sqlite" --table shapes "$work/shape1.txt"
    timed shape-one-changed "$import" --quiet --db "$work/shape.sqlite" --table shapes "$work/shape2.txt"
    "$import" --quiet --db "$work/freq.sqlite" "$work/freq"
    week=(departures S1 --db "$work/freq.sqlite" --at "2025-06-02 00:00" --minutes 10080)
    timed board-week-default-limit "$query" "${week[@]}"
    timed board-week-all-text "$query" "${week[@]}" --limit 100000000
    timed board-week-all-json "$query" "${week[@]}" --limit 100000000 --json
done
