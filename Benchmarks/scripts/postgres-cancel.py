#!/usr/bin/env python3
"""Ctrl-C to exit, for gtfs-import into PostgreSQL: starts an import of FEED into a fresh schema, sends
SIGINT after each of OFFSETS seconds, and measures the time from the signal to the process's exit. Before the
signal it asks the server what the import runs (pg_stat_activity), so that the table shows each phase.
Prints a Markdown table.

Usage: postgres-cancel.py GTFS_IMPORT URI FEED [OFFSETS...]   (default offsets: 1 to 22 s, every 1.5 s)
"""
import signal
import subprocess
import sys
import time


def psql(uri, sql):
    return subprocess.run(["psql", uri, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql],
                          check=True, capture_output=True, text=True).stdout.strip()


def running(uri):
    """The first words of the statement another client runs, or 'idle'."""
    text = psql(uri, "SELECT coalesce(string_agg(left(regexp_replace(query, '\\s+', ' ', 'g'), 44), ' | '), 'idle') "
                     "FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
    return text.replace("|", "/")


def main():
    tool, uri, feed = sys.argv[1:4]
    offsets = [float(o) for o in sys.argv[4:]] or [1 + 1.5 * i for i in range(15)]
    print("| after | the server was running | SIGINT to exit | exit status |")
    print("|---|---|---|---|")
    for offset in offsets:
        psql(uri, "DROP SCHEMA IF EXISTS gtfs CASCADE")
        process = subprocess.Popen([tool, "--quiet", "--db", uri, feed], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(offset)
        phase = running(uri)
        start = time.monotonic()
        process.send_signal(signal.SIGINT)
        status = process.wait()
        elapsed = (time.monotonic() - start) * 1000
        print(f"| {offset:.1f} s | {phase} | {elapsed:.0f} ms | {status} |", flush=True)
        # The server rolls back after the client is gone; wait for that before the next round.
        while running(uri) != "idle":
            time.sleep(0.1)


main()
