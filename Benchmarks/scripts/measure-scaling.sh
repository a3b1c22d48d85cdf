#!/usr/bin/env bash
# Two measurements against a size, each written as CSV under results/ and drawn as SVG by plot-svg.py:
#  1. results/rss-vs-input.csv / .svg: peak RSS (/usr/bin/time -v, maximum of 3 runs) of `lines --count` and of
#     `gtfs-import --table stop_times` (a new database each run) on stop_times inputs of ~10 MB, ~100 MB and
#     ~1 GB, written by make-stop-times.py into data/ (173,132 / 1,731,320 / 17,313,200 rows, 57.76 bytes a row).
#  2. results/throughput-vs-chunk.csv / .svg: `lines --count --chunk-size C` on data/stop_times.txt and its .gz
#     for C = 1 KiB, 4, 16, 64, 256 KiB and 1 MiB (best of 5 after 1 warm-up, page-cached), with `wc -l` and
#     `gzip -dc | wc -l` timed in the same run as references.
# Usage: Benchmarks/scripts/measure-scaling.sh [--rss-only | --chunks-only] [--no-build]
# Needs data/stop_times.txt(.gz) from make-data.sh. About 10 minutes on 2 cores, most of it the 1 GB import.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
root="$(cd "$bench/.." && pwd)"
data="$bench/data" results="$bench/results"
rss=1 chunks=1
for arg in "$@"; do
    case "$arg" in
        --rss-only) chunks=0 ;;
        --chunks-only) rss=0 ;;
        --no-build) export NO_BUILD=1 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "measure-scaling.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done
source "$here/tools.sh"
lines="$(root_tool lines)"
import="$(root_tool gtfs-import)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$results"

provenance() { # the comment lines every CSV starts with
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "# $("$here/machine.sh")"
}

if [[ $rss == 1 ]]; then
    db="$work/rss.sqlite"
    {
        provenance
        echo "# peak RSS: maximum of 3 runs of /usr/bin/time -v; lines --count at its default 4 KiB chunks"
        echo "tool,input_bytes,rows,peak_rss_kb"
        for size in 10MB:173132 100MB:1731320 1GB:17313200; do
            input="$data/stop_times-${size%%:*}.txt" rows="${size##*:}"
            if [[ ! -s $input ]]; then
                echo "writing $input ($rows rows)" >&2
                python3 "$here/make-stop-times.py" "$rows" "$input.tmp"
                mv "$input.tmp" "$input"
            fi
            cat "$input" > /dev/null
            bytes="$(stat -c %s "$input")"
            echo "lines --count,$bytes,$rows,$("$here/peak-rss.sh" -- "$lines" --count "$input")"
            echo "gtfs-import --table stop_times,$bytes,$rows,$("$here/peak-rss.sh" --prepare "rm -f '$db'*" -- \
                "$import" --quiet --db "$db" --table stop_times "$input")"
            echo "measured $input" >&2
        done
    } > "$work/rss.csv"
    mv "$work/rss.csv" "$results/rss-vs-input.csv"
    python3 "$here/plot-svg.py" rss "$results/rss-vs-input.csv" "$results/rss-vs-input.svg"
    cat "$results/rss-vs-input.csv"
fi

if [[ $chunks == 1 ]]; then
    file="$data/stop_times.txt" gz="$data/stop_times.txt.gz"
    for f in "$file" "$gz"; do
        [[ -s $f ]] || { echo "measure-scaling.sh: missing $f: run scripts/make-data.sh first" >&2; exit 1; }
    done
    cat "$file" "$gz" > /dev/null
    {
        printf 'wc -l\t\twc -l %q\n' "$file"
        printf 'gzip -dc | wc -l\t\tgzip -dc %q | wc -l\n' "$gz"
        for input in plain gzip; do
            path="$file"; [[ $input == plain ]] || path="$gz"
            for chunk in 1024 4096 16384 65536 262144 1048576; do
                printf 'lines --count %s\t%s\t%q --count --chunk-size %s %q\n' "$input" "$chunk" "$lines" "$chunk" "$path"
            done
        done
    } > "$work/series.tsv"
    # time-commands.sh names each command by series and chunk.
    awk -F'\t' '{print $1 (($2 == "") ? "" : " @" $2) "\t" $3}' "$work/series.tsv" > "$work/commands.tsv"
    timer="$("$here/time-commands.sh" --runs 5 "$work/commands.tsv" "$work/times.tsv")"
    {
        provenance
        echo "# $timer; decoded MB/s = $(stat -c %s "$file") bytes of stop_times.txt / best seconds / 10^6"
        echo "series,chunk_bytes,best_seconds,mean_seconds,decoded_mb_per_s"
        paste "$work/series.tsv" "$work/times.tsv" | awk -F'\t' -v bytes="$(stat -c %s "$file")" \
            '{printf "%s,%s,%s,%s,%.0f\n", $1, $2, $5, $6, bytes / $5 / 1e6}'
    } > "$results/throughput-vs-chunk.csv"
    python3 "$here/plot-svg.py" throughput "$results/throughput-vs-chunk.csv" "$results/throughput-vs-chunk.svg"
    cat "$results/throughput-vs-chunk.csv"
fi
