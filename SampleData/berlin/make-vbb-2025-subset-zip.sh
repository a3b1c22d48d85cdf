#!/usr/bin/env bash
# Writes vbb-2025-subset.zip from the vbb-2025-subset/ directory beside this script, byte for byte the same on
# every run: the files in sorted order at the top level of the archive, mode 644, every time stamp set to
# 2025-01-01 00:00:00 UTC, no extra fields (-X) and no directory entries (-D), deflate level 9.
# Usage: SampleData/berlin/make-vbb-2025-subset-zip.sh   (needs zip)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here"/vbb-2025-subset/*.txt "$work/"
cd "$work"
export TZ=UTC LC_ALL=C
chmod 644 ./*.txt
touch -d '2025-01-01 00:00:00' ./*.txt
# shellcheck disable=SC2046  # the names hold no spaces
zip -q -X -D -9 "$work/out.zip" $(ls ./*.txt | sort)
mv "$work/out.zip" "$here/vbb-2025-subset.zip"
echo "wrote $here/vbb-2025-subset.zip ($(stat -c %s "$here/vbb-2025-subset.zip") bytes)"
