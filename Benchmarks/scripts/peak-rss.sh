#!/usr/bin/env bash
# Prints the peak resident set size, in kB, of a command: the maximum over RUNS runs of
# `/usr/bin/time -v`'s "Maximum resident set size". The command's output is discarded; a run that fails
# stops the script (exit status 3 of gtfs-import, "some rows rejected", counts as success).
# Usage: peak-rss.sh [--runs N] [--prepare 'shell command run before each run'] -- COMMAND [ARGS...]
set -euo pipefail
runs=3 prepare=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --prepare) prepare="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "peak-rss.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ $# -gt 0 ]] || { echo "peak-rss.sh: no command" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "peak-rss.sh: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
best=0
for _ in $(seq "$runs"); do
    [[ -z $prepare ]] || sh -c "$prepare"
    status=0
    /usr/bin/time -v -o "$report" "$@" > /dev/null 2>&1 || status=$?
    [[ $status == 0 || $status == 3 ]] || { echo "peak-rss.sh: $* exited with status $status" >&2; exit 1; }
    kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$report")"
    (( kb > best )) && best=$kb
done
echo "$best"
