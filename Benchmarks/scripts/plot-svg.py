#!/usr/bin/env python3
"""Draws the measured results of measure-scaling.sh as SVG line charts, with the standard library only.

Usage:
  plot-svg.py rss        results/rss-vs-input.csv        results/rss-vs-input.svg
  plot-svg.py throughput results/throughput-vs-chunk.csv results/throughput-vs-chunk.svg
  plot-svg.py windows    results/network-windows.csv     results/network-windows.svg

The CSV files start with '#' comment lines (date, git, machine) that become the chart's footnote; every
number drawn comes from the CSV.
"""

import csv
import math
import sys
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 860, 440
LEFT, RIGHT, TOP, BOTTOM = 80, 250, 56, 84
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def read(path):
    """The comment lines and the rows of a CSV file written by measure-scaling.sh."""
    with open(path, newline="") as handle:
        lines = handle.read().splitlines()
    comments = [line.lstrip("# ") for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    return comments, rows


def nice_step(maximum, ticks=5):
    """A round step (1, 2 or 5 times a power of ten) that divides 0…maximum into about `ticks` parts."""
    raw = maximum / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= raw)


def chart(title, x_label, y_label, x_ticks, series, references, notes):
    """An SVG line chart with a logarithmic x axis and a linear y axis from 0.

    x_ticks: [(x, label)]; series: [(name, [(x, y, label)])]; references: [(name, y)] drawn as dashed
    horizontal lines, their values in the legend; notes: footnote lines.
    """
    xs = [x for x, _ in x_ticks]
    margin = (math.log(max(xs)) - math.log(min(xs))) * 0.05  # keep the end points off the frame
    low, high = math.log(min(xs)) - margin, math.log(max(xs)) + margin
    top_value = max([y for _, points in series for _, y, _ in points] + [y for _, y in references])
    step = nice_step(top_value * 1.1)
    y_max = step * math.ceil(top_value * 1.1 / step)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x):
        return LEFT + (math.log(x) - low) / (high - low) * plot_w

    def py(y):
        return TOP + plot_h - y / y_max * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="24" font-size="16" font-weight="bold">{escape(title)}</text>']
    y = 0.0
    while y <= y_max + 1e-9:
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{LEFT - 8}" y="{py(y) + 4:.1f}" text-anchor="end">{y:,.0f}</text>')
        y += step
    for x, label in x_ticks:
        out.append(f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{TOP}" y2="{TOP + plot_h}" stroke="#f0f0f0"/>')
        out.append(f'<text x="{px(x):.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{TOP + plot_h + 40}" text-anchor="middle">{escape(x_label)}</text>')
    out.append(f'<text transform="translate(20 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">'
               f'{escape(y_label)}</text>')

    legend_y = TOP + 8
    for index, (name, y) in enumerate(references):
        color = COLORS[(len(series) + index) % len(COLORS)]
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="{color}" '
                   f'stroke-dasharray="6 4"/>')
        out.append(f'<line x1="{LEFT + plot_w + 14}" x2="{LEFT + plot_w + 38}" y1="{legend_y}" y2="{legend_y}" '
                   f'stroke="{color}" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{LEFT + plot_w + 44}" y="{legend_y + 4}">{escape(name)}: {y:,.0f}</text>')
        legend_y += 20
    for index, (name, points) in enumerate(series):
        color = COLORS[index % len(COLORS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y, _ in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for x, y, label in points:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{color}"/>')
            out.append(f'<text x="{px(x):.1f}" y="{py(y) - 8:.1f}" text-anchor="middle" fill="{color}">'
                       f'{escape(label)}</text>')
        out.append(f'<line x1="{LEFT + plot_w + 14}" x2="{LEFT + plot_w + 38}" y1="{legend_y}" y2="{legend_y}" '
                   f'stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{LEFT + plot_w + 44}" y="{legend_y + 4}">{escape(name)}</text>')
        legend_y += 20
    for index, note in enumerate(notes):
        out.append(f'<text x="{LEFT}" y="{HEIGHT - 26 + index * 14}" font-size="10" fill="#555">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def size_label(n):
    """1024 -> '1 KiB', 1048576 -> '1 MiB'."""
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def rss_chart(comments, rows):
    names = list(dict.fromkeys(row["tool"] for row in rows))
    series = [(name, [(int(r["input_bytes"]) / 1e6, int(r["peak_rss_kb"]) / 1024, f'{int(r["peak_rss_kb"]) / 1024:.1f}')
                      for r in rows if r["tool"] == name]) for name in names]
    sizes = sorted({int(r["input_bytes"]) for r in rows})
    ticks = [(s / 1e6, f"{s / 1e6:,.0f} MB") for s in sizes]
    return chart("Peak RSS against input size (stop_times.txt)", "input size (log scale)",
                 "peak resident set size (MiB)", ticks, series, [], comments[:2])


def throughput_chart(comments, rows):
    lines = [r for r in rows if r["chunk_bytes"]]
    names = list(dict.fromkeys(r["series"] for r in lines))
    series = [(name, [(int(r["chunk_bytes"]), float(r["decoded_mb_per_s"]), f'{float(r["decoded_mb_per_s"]):,.0f}')
                      for r in lines if r["series"] == name]) for name in names]
    references = [(r["series"], float(r["decoded_mb_per_s"])) for r in rows if not r["chunk_bytes"]]
    chunks = sorted({int(r["chunk_bytes"]) for r in lines})
    return chart("lines --count: throughput against chunk size", "chunk size (log scale)",
                 "decoded MB/s (best run)", [(c, size_label(c)) for c in chunks], series, references, comments[:2])


def windows_chart(comments, rows):
    """Network-wide windows (network-windows.sh): the median time of each query on each store against the
    feed's stop times."""
    keys = list(dict.fromkeys((r["store"], r["query"]) for r in rows))
    series = [(f"{store}: {query}", [(int(r["stop_times"]) / 1e6, float(r["seconds"]) * 1000, f'{float(r["seconds"]) * 1000:,.0f}')
                                     for r in rows if (r["store"], r["query"]) == (store, query)]) for store, query in keys]
    sizes = sorted({int(r["stop_times"]) for r in rows})
    return chart("A 20-minute window of the whole network against one pass over stop_times", "stop times in the feed (log scale)",
                 "median time (ms)", [(s / 1e6, f"{s / 1e6:,.1f} M") for s in sizes], series, [], comments[:2])


def main():
    charts = {"rss": rss_chart, "throughput": throughput_chart, "windows": windows_chart}
    if len(sys.argv) != 4 or sys.argv[1] not in charts:
        sys.exit(__doc__)
    comments, rows = read(sys.argv[2])
    svg = charts[sys.argv[1]](comments, rows)
    with open(sys.argv[3], "w") as handle:
        handle.write(svg)


if __name__ == "__main__":
    main()
