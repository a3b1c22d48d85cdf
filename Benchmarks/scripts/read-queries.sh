#!/usr/bin/env bash
# The read side on the VBB-scale synthetic feed: imports data/vbb-synth-1.0.zip (gtfs-synth --scale 1.0)
# into a fresh database, then times departure boards, nearby stops and name searches warm over 100
# stations (Sources/read-queries). Writes results/read-queries.txt and prints it.
# Usage: Benchmarks/scripts/read-queries.sh   (NO_BUILD=1 reuses the release build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
import="$(root_tool gtfs-import)"
queries="$(bench_tool read-queries)"
feed="$(vbb_feed)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$import" --quiet --db "$work/vbb.sqlite" "$feed" > /dev/null
{
    echo "# $(date -u +%Y-%m-%d), $(bash "$here/machine.sh")"
    "$queries" "$work/vbb.sqlite"
} | tee "$bench/results/read-queries.txt"
