#!/usr/bin/env bash
# Writes vbb-2025-generated/trip-updates.pb: a generated GTFS-Realtime TripUpdates message for the trips of
# the 2025 subset (with the generated stop times) that start 06:30–08:10 on Monday 2025-11-24, made at
# 07:58 in Berlin (06:58 UTC), seed 1. The same bytes on every run.
# Usage: SampleData/berlin/make-trip-updates.sh [path of gtfs-synth]   (default: .build/release/gtfs-synth)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
synth="${1:-$here/../../.build/release/gtfs-synth}"
feed=$(mktemp -d)
trap 'rm -rf "$feed"' EXIT
for file in "$here"/vbb-2025-subset/*.txt; do ln -s "$file" "$feed/"; done
gunzip -c "$here/vbb-2025-generated/stop_times.txt.gz" > "$feed/stop_times.txt"
"$synth" realtime --feed "$feed" --date 20251124 --from 06:30:00 --to 08:10:00 --timestamp 1763967480 --seed 1 \
    --out "$here/vbb-2025-generated/trip-updates.pb"
