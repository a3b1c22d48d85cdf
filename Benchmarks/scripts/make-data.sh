#!/usr/bin/env bash
# Creates the benchmark inputs in Benchmarks/data/ (gitignored):
#   stop_times.txt      5,000,000 rows, ~289 MB (seeded, identical on every run)
#   stop_times.txt.gz   the same, gzip -6 (~53 MB)
#   with --large: stop_times-large.txt, 30,000,000 rows, ~1.7 GB (for the peak-RSS comparison)
# Existing files are kept; pass --force to regenerate.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
data="$here/../data"
large=0 force=0
for arg in "$@"; do
    case "$arg" in
        --large) large=1 ;;
        --force) force=1 ;;
        -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "make-data.sh: unknown argument $arg (use --large, --force)" >&2; exit 2 ;;
    esac
done
mkdir -p "$data"
data="$(cd "$data" && pwd)"

make_rows() { # rows path
    if [[ $force == 1 || ! -s "$2" ]]; then
        echo "writing $2 ($1 rows)"
        python3 "$here/make-stop-times.py" "$1" "$2.tmp"
        mv "$2.tmp" "$2"
    else
        echo "keeping $2"
    fi
}

make_rows 5000000 "$data/stop_times.txt"
if [[ $force == 1 || ! -s "$data/stop_times.txt.gz" || "$data/stop_times.txt" -nt "$data/stop_times.txt.gz" ]]; then
    echo "writing $data/stop_times.txt.gz (gzip -6)"
    gzip -6 -c "$data/stop_times.txt" > "$data/stop_times.txt.gz.tmp"
    mv "$data/stop_times.txt.gz.tmp" "$data/stop_times.txt.gz"
fi
if [[ $large == 1 ]]; then
    make_rows 30000000 "$data/stop_times-large.txt"
fi
ls -l "$data"
