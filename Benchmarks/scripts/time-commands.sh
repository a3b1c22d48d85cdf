#!/usr/bin/env bash
# Times shell commands side by side and writes, for each, its best and mean wall-clock seconds.
#   COMMANDS  a TSV file: name <TAB> command [<TAB> preparation run before each timed run, untimed]
#   OUT       a TSV file written as: name <TAB> best seconds <TAB> mean seconds
# Uses hyperfine when installed (raw output kept as RAW.hyperfine.json and RAW.hyperfine.txt when --raw RAW
# is given), else a loop over /usr/bin/time. Prints what timed the runs, e.g. "hyperfine 1.15.0, best of 5
# after 1 warm-up", on standard output; the timer's progress goes to standard error. A command that fails
# (exit status other than 0) stops the script.
# Usage: time-commands.sh [--runs N] [--warmup N] [--raw PREFIX] COMMANDS OUT
set -euo pipefail
runs=5 warmup=1 raw=""
while [[ $# -gt 2 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --raw) raw="$2"; shift 2 ;;
        *) echo "time-commands.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ $# == 2 ]] || { echo "usage: time-commands.sh [--runs N] [--warmup N] [--raw PREFIX] COMMANDS OUT" >&2; exit 2; }
commands="$1" out="$2"
warmups="$warmup warm-up"; [[ $warmup == 1 ]] || warmups+="s"

if command -v hyperfine > /dev/null; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    # hyperfine takes either no --prepare or one per command: give the commands without one a no-op.
    has_prepare=0
    if cut -f3 "$commands" | grep -q .; then has_prepare=1; fi
    args=()
    while IFS=$'\t' read -r name command prepare; do
        args+=(-n "$name")
        [[ $has_prepare == 0 ]] || args+=(--prepare "${prepare:-true}")
        args+=("$command")
    done < "$commands"
    hyperfine --style basic --warmup "$warmup" --runs "$runs" --export-json "$work/hyperfine.json" "${args[@]}" \
        2>&1 | tee "$work/hyperfine.txt" >&2
    python3 - "$work/hyperfine.json" > "$out" <<'PY'
import json, sys
for result in json.load(open(sys.argv[1]))["results"]:
    print(f'{result["command"]}\t{result["min"]:.4f}\t{result["mean"]:.4f}')
PY
    if [[ -n $raw ]]; then
        cp "$work/hyperfine.json" "$raw.hyperfine.json"
        cp "$work/hyperfine.txt" "$raw.hyperfine.txt"
    fi
    echo "hyperfine $(hyperfine --version | cut -d' ' -f2), best of $runs after $warmups"
else
    [[ -x /usr/bin/time ]] || { echo "time-commands.sh: neither hyperfine nor /usr/bin/time is installed" >&2; exit 1; }
    seconds="$(mktemp)"
    trap 'rm -f "$seconds"' EXIT
    : > "$out"
    while IFS=$'\t' read -r name command prepare; do
        for _ in $(seq "$warmup"); do sh -c "${prepare:-true}"; sh -c "$command" > /dev/null; done
        for _ in $(seq "$runs"); do
            sh -c "${prepare:-true}"
            /usr/bin/time -f '%e' -o "$seconds" sh -c "$command" > /dev/null
            cat "$seconds"
        done | awk -v n="$name" '{s+=$1; if (NR==1||$1<m) m=$1} END {printf "%s\t%.4f\t%.4f\n", n, m, s/NR}' >> "$out"
        echo "$name: $(tail -1 "$out" | cut -f2) s best" >&2
    done < "$commands"
    echo "/usr/bin/time loop, best of $runs after $warmups"
fi
