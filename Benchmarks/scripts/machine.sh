#!/usr/bin/env bash
# Prints the machine a measurement ran on, as one line: kernel, cores, CPU model, memory, Swift version and
# the load average at the time of the call. Every report in results/ starts with it.
set -euo pipefail
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
memory="$(free -g | awk '/Mem:/ {print $2}') GB RAM"
swift="$(swift --version 2>/dev/null | head -1 | sed 's/ (.*//')"
echo "$(uname -srm), $(nproc) cores, ${cpu:-unknown CPU}, $memory, ${swift:-no swift}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
