# Sourced by the scripts: builds the tools they time, in release mode, and gives their paths.
#   root_tool NAME    a product of the root package (lines, gtfs-import, gtfs-synth), built with
#                     --scratch-path <root>/.build-release so that it leaves the root's .build alone
#   bench_tool NAME   a product of this package (parse-stop-times, import-cancel-latency), built in .build
# Both print the executable's path on standard output and the build's output on standard error.
# Set NO_BUILD=1 to reuse what is built.
tools_bench="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_root="$(cd "$tools_bench/.." && pwd)"

tools_build() { # package-directory product [swift build options...]
    local directory="$1" product="$2" bin
    shift 2
    if [[ ${NO_BUILD:-0} != 1 ]]; then
        (cd "$directory" && swift build -c release --product "$product" "$@" >&2)
    fi
    bin="$(cd "$directory" && swift build -c release "$@" --show-bin-path)/$product"
    [[ -x $bin ]] || { echo "tools.sh: $bin is not built" >&2; return 1; }
    echo "$bin"
}

root_tool() { tools_build "$tools_root" "$1" --scratch-path "$tools_root/.build-release"; }
bench_tool() { tools_build "$tools_bench" "$1"; }

# The synthetic feed of scale SCALE (default 1.0, VBB scale), data/vbb-synth-SCALE.zip
# (gtfs-synth --scale SCALE), made on first use.
vbb_feed() { # [scale]
    local scale="${1:-1.0}"
    local feed="$tools_bench/data/vbb-synth-$scale.zip"
    mkdir -p "$tools_bench/data"
    # `|| return`: errexit is off inside the $(…) that calls this.
    [[ -s $feed ]] || "$(root_tool gtfs-synth)" --scale "$scale" --out "$feed" >&2 || return
    echo "$feed"
}

# Its next version with 1 % of stop_times changed, data/vbb-synth-SCALE-changed.zip (seeded;
# make-changed-feed.py, its counts in the .json beside it), made on first use.
vbb_changed_feed() { # [scale]
    local feed changed="$tools_bench/data/vbb-synth-${1:-1.0}-changed.zip"
    feed="$(vbb_feed "${1:-1.0}")" || return
    if [[ ! -s $changed || ! -s ${changed%.zip}.json ]]; then
        python3 "$tools_bench/scripts/make-changed-feed.py" "$feed" "$changed" > "${changed%.zip}.json" || return
    fi
    echo "$changed"
}

# Starts a PostgreSQL server of its own: initdb into FOLDER/server as the postgres user (default settings,
# C locale), a Unix socket there on PORT, no TCP. Prints its URI. Stop it with stop_postgres FOLDER.
start_postgres() { # folder port
    local folder="$1" port="$2" bin="${GTFS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}"
    chmod 755 "$folder"
    mkdir "$folder/server" && chown postgres "$folder/server"
    runuser -u postgres -- "$bin/initdb" -D "$folder/server/data" -U postgres -A trust -E UTF8 --locale=C > /dev/null
    runuser -u postgres -- "$bin/pg_ctl" -D "$folder/server/data" -l "$folder/server/log" -w \
        -o "-k $folder/server -p $port -c listen_addresses=''" start > /dev/null
    echo "postgresql:///postgres?host=$folder/server&port=$port&user=postgres"
}

stop_postgres() { # folder
    local bin="${GTFS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}"
    runuser -u postgres -- "$bin/pg_ctl" -D "$1/server/data" -m immediate stop > /dev/null 2>&1 || true
}

# Readers of a store, 20 queries a second for SECONDS, each answer's latency logged (a reader that never
# fails while imports land is what the stores promise). PostgreSQL through pgbench -R 20 with the query in
# FOLDER/board.sql, logged to FOLDER/pg-LABEL*; SQLite through Python's sqlite3 (a read-only connection
# per query), logged to FOLDER/lite-LABEL.log. readers-latency.py summarizes them.
pg_readers() { # folder port seconds label
    local bin="${GTFS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}"
    (cd "$1" && "$bin/pgbench" -n -R 20 -T "$3" -c 1 -f board.sql -l --log-prefix="pg-$4" \
        -h "$1/server" -p "$2" -U postgres postgres > "pgbench-$4.txt" 2>&1) || true
}
lite_readers() { # folder database query seconds label
    python3 - "$2" "$3" "$4" "$1/lite-$5.log" <<'PY'
import sqlite3, sys, time
path, query, seconds, log = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
with open(log, "w") as out:
    end = time.monotonic() + seconds
    next_at = time.monotonic()
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
            db.execute(query).fetchall()
            db.close()
            out.write(f"ok {(time.monotonic() - start) * 1e6:.0f}\n")
        except sqlite3.Error as error:
            out.write(f"error {(time.monotonic() - start) * 1e6:.0f} {error}\n")
        next_at += 0.05
        time.sleep(max(0, next_at - time.monotonic()))
PY
}

# Runs a command after a `sync`, timed with /usr/bin/time, and appends `STORE CASE SECONDS PEAK_RSS_KB` to
# FOLDER/raw.txt; a command that fails ends the script with its standard error.
timed_case() { # folder store case command...
    local folder="$1" store="$2" case="$3"
    shift 3
    sync
    /usr/bin/time -f "%e %M" -o "$folder/time" "$@" > /dev/null 2> "$folder/stderr" \
        || { cat "$folder/stderr" >&2; echo "$(basename "$0"): $store $case failed" >&2; exit 1; }
    echo "$store $case $(tail -1 "$folder/time")" >> "$folder/raw.txt"
}
