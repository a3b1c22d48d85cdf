#!/usr/bin/env bash
# Runs the package-benchmark suite and the allocation gate, and keeps the plain-text output:
#   results/package-benchmark.txt   `swift package benchmark` (all metrics, all benchmarks: Reader, parse, import)
#   results/thresholds-check.txt    `swift package benchmark thresholds check` against Thresholds/6.3, for the
#                                   benchmarks whose mallocCountTotal is the same in every run (see README.md)
# Extra arguments go to `swift package benchmark` (e.g. --filter 'forEachLine\.plain\..*').
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
cd "$bench"
mkdir -p results
# Gated: every Reader read and both parses. Not gated: the import, whose count moves by a few allocations
# from run to run (the parser and writer threads' hand-off), and the peak-RSS benchmarks.
gated='forEachLine\..*|parse\.stopTimes\..*'

header() {
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?'), $("$here/machine.sh")"
}
strip() { sed 's/\x1b\[[0-9;]*m//g'; }

{ header; echo "\$ swift package benchmark --no-progress $*"; swift package benchmark --no-progress "$@" 2>&1 | strip; } \
    | tee results/package-benchmark.txt
status=0
{ header; echo "\$ swift package benchmark thresholds check --path Thresholds/6.3 --filter '$gated' --metric mallocCountTotal --no-progress"
  swift package benchmark thresholds check --path Thresholds/6.3 --filter "$gated" --metric mallocCountTotal \
      --no-progress 2>&1 | strip; echo "exit status ${PIPESTATUS[0]}"; } | tee results/thresholds-check.txt
grep -q '^exit status 0$' results/thresholds-check.txt || status=1
exit $status
