#!/usr/bin/env bash
# Runs the package-benchmark suite and the allocation gate, and keeps the plain-text output:
#   results/package-benchmark.txt   `swift package benchmark` (all metrics, all benchmarks)
#   results/thresholds-check.txt    `swift package benchmark thresholds check` against Thresholds/6.3
# Extra arguments go to `swift package benchmark` (e.g. --filter 'forEachLine\.plain\..*').
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$bench"
mkdir -p results

header() {
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?'), $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>/dev/null | head -1)"
    echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
}
strip() { sed 's/\x1b\[[0-9;]*m//g'; }

{ header; echo "\$ swift package benchmark --no-progress $*"; swift package benchmark --no-progress "$@" 2>&1 | strip; } \
    | tee results/package-benchmark.txt
status=0
{ header; echo "\$ swift package benchmark thresholds check --path Thresholds/6.3 --filter 'forEachLine\\..*' --metric mallocCountTotal --no-progress"
  swift package benchmark thresholds check --path Thresholds/6.3 --filter 'forEachLine\..*' --metric mallocCountTotal \
      --no-progress 2>&1 | strip; echo "exit status ${PIPESTATUS[0]}"; } | tee results/thresholds-check.txt
grep -q '^exit status 0$' results/thresholds-check.txt || status=1
exit $status
