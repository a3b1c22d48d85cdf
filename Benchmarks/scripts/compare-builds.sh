#!/usr/bin/env bash
# Two builds of gtfs-import side by side, alternating which goes first in each round, on one machine
# state: the speed cases a change must not slow down (issue 33's "no measured speed gets worse by more
# than 5 %"), each command after a `sync`, timed with /usr/bin/time (wall seconds, peak RSS kB).
#   stop_times   the 5 M stop_times (data/stop_times.txt) into a new database with --table stop_times
#   vbb-first    the VBB-scale feed (data/vbb-synth-1.0.zip) into a new database
#   vbb-changed  its 1 %-changed version applied incrementally to a copy of that database
# With --postgres, the same three into a PostgreSQL server of its own (start_postgres), each into a
# fresh schema (pg-stop_times, pg-vbb-first; pg-vbb-changed onto the schema pg-vbb-first wrote).
# Usage: Benchmarks/scripts/compare-builds.sh [--postgres] [--after COMMIT] BEFORE-COMMIT [ROUNDS]
#   (ROUNDS default 5; --after builds that commit in a worktree of its own instead of the working tree)
#   The commit is built in release mode in a worktree of its own (kept in $TMPDIR for the next run); the
#   working tree as root_tool builds it (NO_BUILD=1 reuses that build). Writes
#   results/compare-builds-BEFORE-AFTER.md and prints its table.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
source "$here/tools.sh"
postgres=0 after_rev=""
while [[ ${1:-} == --* ]]; do
    case "$1" in
        --postgres) postgres=1; shift ;;
        --after) after_rev="$2"; shift 2 ;;
        *) echo "compare-builds.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
rounds="${2:-5}"
before_commit="$(git -C "$bench" rev-parse --short "$1")"
# A commit built in release mode in a worktree of its own, kept in $TMPDIR for the next run.
commit_tool() { # short-commit
    local tree="${TMPDIR:-/tmp}/gtfs-lines-build-$1"
    [[ -d $tree ]] || git -C "$bench" worktree add --detach "$tree" "$1" >&2
    (cd "$tree" && swift build -c release --product gtfs-import >&2)
    echo "$(cd "$tree" && swift build -c release --show-bin-path)/gtfs-import"
}
before="$(commit_tool "$before_commit")"
if [[ -n $after_rev ]]; then
    after_commit="$(git -C "$bench" rev-parse --short "$after_rev")"
    after="$(commit_tool "$after_commit")"
else
    after_commit="$(git -C "$bench" rev-parse --short HEAD)$(git -C "$bench" diff --quiet HEAD -- ../Sources || echo +changes)"
    after="$(root_tool gtfs-import)"
fi
feed="$(vbb_feed)"
changed="$(vbb_changed_feed)"
[[ -s $bench/data/stop_times.txt ]] || bash "$here/make-data.sh" >&2
work=$(mktemp -d)
trap 'stop_postgres "$work"; rm -rf "$work"' EXIT
uri=""
if (( postgres )); then uri="$(start_postgres "$work" 54341)"; fi
sql() { PGOPTIONS="-c client_min_messages=warning" psql "$uri" -qAt -v ON_ERROR_STOP=1 -c "$1"; }
raw="$work/raw.txt"
out="$bench/results/compare-builds-$before_commit-$after_commit.md"
cat "$feed" "$changed" "$bench/data/stop_times.txt" > /dev/null  # page cache

timed() { # build-name case command...
    local build="$1" case="$2"
    shift 2
    sync
    local status=0
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || status=$?
    [[ $status == 0 || $status == 3 ]] || { cat "$work/stderr" >&2; echo "compare-builds.sh: $build $case failed ($status)" >&2; exit 1; }
    echo "$build $case $(tail -1 "$work/time")" >> "$raw"
}
one_build() { # name executable
    local name="$1" tool="$2"
    rm -f "$work"/*.sqlite*
    timed "$name" stop_times "$tool" --quiet --db "$work/st.sqlite" --table stop_times "$bench/data/stop_times.txt"
    timed "$name" vbb-first "$tool" --quiet --db "$work/a.sqlite" "$feed"
    cp "$work/a.sqlite" "$work/b.sqlite"
    timed "$name" vbb-changed "$tool" --quiet --db "$work/b.sqlite" "$changed"
    (( postgres )) || return 0
    sql "DROP SCHEMA IF EXISTS st CASCADE; DROP SCHEMA IF EXISTS vbb CASCADE"
    timed "$name" pg-stop_times "$tool" --quiet --db "$uri" --schema st --table stop_times "$bench/data/stop_times.txt"
    timed "$name" pg-vbb-first "$tool" --quiet --db "$uri" --schema vbb "$feed"
    timed "$name" pg-vbb-changed "$tool" --quiet --db "$uri" --schema vbb "$changed"
}
for round in $(seq "$rounds"); do
    if (( round % 2 == 1 )); then
        one_build before "$before"; one_build after "$after"
    else
        one_build after "$after"; one_build before "$before"
    fi
    echo "round $round of $rounds done" >&2
done
{
    echo "# Two builds of gtfs-import, $rounds alternating rounds, $(date -u +%Y-%m-%d)"
    echo "# before: git $before_commit; after: git $after_commit"
    echo "# $(bash "$here/machine.sh")"
} > "$out"
sed 's/^/    /' "$raw" >> "$out"
python3 - "$raw" "$out" "$rounds" <<'PY'
import statistics, sys
raw, out, rounds = sys.argv[1], sys.argv[2], sys.argv[3]
runs = {}
for line in open(raw):
    build, case, seconds, rss = line.split()
    runs.setdefault((case, build), []).append((float(seconds), int(rss)))
lines = ["",
         "| case | before (s) | after (s) | after / before (medians) | peak RSS before / after (MB) |", "|---|---|---|---|---|"]
for case in ["stop_times", "vbb-first", "vbb-changed", "pg-stop_times", "pg-vbb-first", "pg-vbb-changed"]:
    if (case, "before") not in runs: continue
    b, a = runs[(case, "before")], runs[(case, "after")]
    mb, ma = statistics.median(s for s, _ in b), statistics.median(s for s, _ in a)
    lines.append(f"| {case} | {' / '.join('%.2f' % s for s, _ in b)} | {' / '.join('%.2f' % s for s, _ in a)} | "
                 f"{ma / mb:.3f} ({mb:.2f} → {ma:.2f}) | {max(r for _, r in b) / 1024:.1f} / {max(r for _, r in a) / 1024:.1f} |")
open(out, "a").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
