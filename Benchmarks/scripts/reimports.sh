#!/usr/bin/env bash
# Re-imports of the VBB-scale synthetic feed, round by round on one machine state, each command after a
# `sync`, timed with /usr/bin/time (wall seconds, peak RSS kB): a first import into a new file, `--full`
# of it again (the only feed: built aside and switched), the same feed again, the 1 %-changed version
# incrementally with and without `--changes FILE` (their order alternates by round), and a first import
# of the changed version into a new file (what the incremental import is compared with).
# Usage: Benchmarks/scripts/reimports.sh [ROUNDS]   (default 3; NO_BUILD=1 reuses the release build)
# Writes results/reimports.txt and prints it. Needs data/vbb-synth-1.0.zip (made on first use) and
# data/vbb-synth-1.0-changed.zip (scripts/make-changed-feed.py, made on first use).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
import="$(root_tool gtfs-import)"
rounds="${1:-3}"
feed="$(vbb_feed)"
changed="$(vbb_changed_feed)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$bench/results/reimports.txt"
echo "# $(date -u +%Y-%m-%d), git $(git -C "$bench" rev-parse --short HEAD), $(bash "$here/machine.sh")" | tee "$out"
echo "# round case seconds peak-RSS-kB exit-status" | tee -a "$out"
timed() { # round label command...
    local round="$1" label="$2"
    shift 2
    sync
    local status=0
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || status=$?
    echo "$round $label $(cat "$work/time" | tail -1) $status" | tee -a "$out"
}
for round in $(seq "$rounds"); do
    rm -f "$work"/*.sqlite* "$work"/changes.jsonl
    timed "$round" first "$import" --quiet --db "$work/a.sqlite" "$feed"
    timed "$round" full "$import" --quiet --full --db "$work/a.sqlite" "$feed"
    timed "$round" same "$import" --quiet --db "$work/a.sqlite" "$feed"
    cp "$work/a.sqlite" "$work/b.sqlite"
    cp "$work/a.sqlite" "$work/c.sqlite"
    if (( round % 2 == 1 )); then
        timed "$round" changed "$import" --quiet --db "$work/b.sqlite" "$changed"
        timed "$round" changed+log "$import" --quiet --changes "$work/changes.jsonl" --db "$work/c.sqlite" "$changed"
    else
        timed "$round" changed+log "$import" --quiet --changes "$work/changes.jsonl" --db "$work/c.sqlite" "$changed"
        timed "$round" changed "$import" --quiet --db "$work/b.sqlite" "$changed"
    fi
    timed "$round" changed-first "$import" --quiet --db "$work/d.sqlite" "$changed"
done
