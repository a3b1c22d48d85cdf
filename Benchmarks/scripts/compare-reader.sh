#!/usr/bin/env bash
# Times `lines --count` (LineReader) side by side with `wc -l` and `gzip -dc | wc -l` on the page-cached
# stop_times.txt, then measures the peak RSS of `lines --count` on the 289 MB and the 1.7 GB file.
#
# Usage: Benchmarks/scripts/compare-reader.sh [--runs N] [--no-build] [--out FILE]
#   --runs N    timed runs per command, best one kept (default 5; plus 1 warm-up run)
#   --no-build  reuse the existing release build of `lines`
#   --out FILE  also write the report there (default Benchmarks/results/compare-reader.md)
# Needs Benchmarks/data/ from scripts/make-data.sh (--large for the 1.7 GB file; without it the RSS
# comparison is skipped). Uses hyperfine when installed, else a loop over /usr/bin/time.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
root="$(cd "$bench/.." && pwd)"
data="$bench/data"
runs=5 build=1 out="$bench/results/compare-reader.md"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "compare-reader.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

file="$data/stop_times.txt"
gz="$file.gz"
large="$data/stop_times-large.txt"
for f in "$file" "$gz"; do
    [[ -s $f ]] || { echo "compare-reader.sh: missing $f: run Benchmarks/scripts/make-data.sh first" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "compare-reader.sh: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }

source "$here/tools.sh"
[[ $build == 1 ]] || export NO_BUILD=1
lines="$(root_tool lines)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# Warm the page cache and check that every command counts the same lines.
cat "$file" "$gz" > /dev/null
expected="$(wc -l < "$file")"
check() { # name command...
    local got
    got="$("${@:2}" | tr -dc '0-9')"
    [[ $got == "$expected" ]] || { echo "compare-reader.sh: $1 counted $got lines, wc -l $expected" >&2; exit 1; }
}
for c in 4096 65536 262144; do
    check "lines $c" "$lines" --count --chunk-size "$c" "$file"
    check "lines gz $c" "$lines" --count --chunk-size "$c" "$gz"
done
check "gzip -dc" sh -c "gzip -dc '$gz' | wc -l"

# name <TAB> command
cat > "$work/commands.tsv" <<EOF
wc -l	wc -l '$file'
lines --count, 4 KiB	'$lines' --count --chunk-size 4096 '$file'
lines --count, 64 KiB	'$lines' --count --chunk-size 65536 '$file'
lines --count, 256 KiB	'$lines' --count --chunk-size 262144 '$file'
gzip -dc | wc -l	gzip -dc '$gz' | wc -l
lines --count .gz, 4 KiB	'$lines' --count --chunk-size 4096 '$gz'
lines --count .gz, 64 KiB	'$lines' --count --chunk-size 65536 '$gz'
lines --count .gz, 256 KiB	'$lines' --count --chunk-size 262144 '$gz'
EOF

# Timings -> times.tsv: name <TAB> best seconds <TAB> mean seconds
timer="$("$here/time-commands.sh" --runs "$runs" --raw "$work/run" "$work/commands.tsv" "$work/times.tsv")"

# Peak RSS of lines --count: max of 3 runs, 4 KiB (default) and 256 KiB chunks, on both file sizes.
: > "$work/rss.tsv"
for c in 4096 262144; do
    small_kb="$("$here/peak-rss.sh" -- "$lines" --count --chunk-size "$c" "$file")"
    if [[ -s $large ]]; then large_kb="$("$here/peak-rss.sh" -- "$lines" --count --chunk-size "$c" "$large")"; else large_kb=""; fi
    printf '%s\t%s\t%s\n' "$c" "$small_kb" "$large_kb" >> "$work/rss.tsv"
done
wc_rss="$("$here/peak-rss.sh" --runs 1 -- wc -l "$file")"

{
    echo "# compare-reader.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- machine: $("$here/machine.sh")"
    changed="$(git -C "$root" --no-optional-locks status --porcelain -- Sources Package.swift 2>/dev/null | wc -l)"
    echo "- lines: ${lines#"$root"/} (git $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $changed uncommitted change(s) under Sources/ and Package.swift)"
    echo "- input: $(basename "$file") $(stat -c %s "$file") bytes, $expected lines; $(basename "$gz") $(stat -c %s "$gz") bytes (gzip -6); page-cached"
    echo "- timing: $timer; load average before: $load_before"
    echo
    python3 - "$work/times.tsv" "$(stat -c %s "$file")" <<'EOF'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
size = int(sys.argv[2])
best = {name: float(b) for name, b, _ in rows}
targets = {  # name -> (baseline, minimum ratio)
    "lines --count, 4 KiB": ("wc -l", 0.20),
    "lines --count, 64 KiB": ("wc -l", 0.50),
    "lines --count, 256 KiB": ("wc -l", 0.50),
    "lines --count .gz, 4 KiB": ("gzip -dc | wc -l", 2.0),
    "lines --count .gz, 64 KiB": ("gzip -dc | wc -l", 2.0),
    "lines --count .gz, 256 KiB": ("gzip -dc | wc -l", 2.0),
}
def code(text):  # a command in a table cell: the pipe must be escaped
    return "`" + text.replace("|", "\\|") + "`"
print("| Command | best s | mean s | MB/s (decoded) | ratio to baseline | target | result |")
print("|---|---:|---:|---:|---|---|---|")
for name, b, mean in rows:
    b = float(b)
    mbs = size / b / 1e6
    if name in targets:
        base, need = targets[name]
        ratio = best[base] / b
        verdict = "PASS" if ratio >= need else "FAIL"
        print(f"| {code(name)} | {b:.3f} | {float(mean):.3f} | {mbs:,.0f} | {ratio:.2f}x {code(base)} | >= {need:g}x | {verdict} |")
    else:
        print(f"| {code(name)} | {b:.3f} | {float(mean):.3f} | {mbs:,.0f} | (baseline) | | |")
EOF
    echo
    echo "Peak RSS of \`lines --count\` (max of 3 runs, /usr/bin/time -v); \`wc -l\`: ${wc_rss} kB"
    echo
    echo "| chunk | $(basename "$file") ($(( ($(stat -c %s "$file") + 500000) / 1000000 )) MB) | $(basename "$large") ($( [[ -s $large ]] && echo $(( ($(stat -c %s "$large") + 500000) / 1000000 )) || echo '-') MB) | difference |"
    echo "|---:|---:|---:|---:|"
    while IFS=$'\t' read -r c s l; do
        if [[ -n $l ]]; then
            printf '| %s | %s kB | %s kB | %+d kB |\n' "$c" "$s" "$l" "$(( l - s ))"
        else
            printf '| %s | %s kB | (no large file: make-data.sh --large) | |\n' "$c" "$s"
        fi
    done < "$work/rss.tsv"
} | tee "$work/report.md"

if [[ -n $out ]]; then
    mkdir -p "$(dirname "$out")"
    cp "$work/report.md" "$out"
    if [[ -f $work/run.hyperfine.json ]]; then
        cp "$work/run.hyperfine.json" "${out%.md}.hyperfine.json"
        cp "$work/run.hyperfine.txt" "${out%.md}.hyperfine.txt"
    fi
    echo "wrote $out" >&2
fi
