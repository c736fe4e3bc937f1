#!/usr/bin/env python3
"""host_targets_table.py: issue #22's targets for the `openmp` plugin against one results file, as
a markdown table: per target, the fastest verified `openmp` variant's figure, `cpu_serial`'s beside
it, and whether the target is met.

usage: host_targets_table.py RESULTS.json [--plugin openmp] [--serial cpu_serial]

The file must hold the sizes the targets name (made with the command in docs/performance.md); a
target whose cells are missing is reported as such, not skipped. Percentages are the file's own
percent_of_peak: of the host's read rate (reduce, dot) or copy rate (the rest) that the same run
calibrated, over each workload's minimum traffic."""
import argparse
import json
import sys

PERCENT_TARGETS = [  # workload, distributions, sizes, minimum % of the peak
    ("reduce", ["mod100"], ["2^26", "2^28"], 85.0),
    ("dot", ["uniform"], ["2^26", "2^28"], 85.0),
    ("scan", ["small", "random"], ["2^26", "2^28"], 75.0),
    ("compact", ["keep50", "keep1", "keep99"], ["2^28"], 65.0),
]
TIME_TARGETS = [  # workload, distributions, size, at most ms
    ("sort", ["uniform"], "2^28", 224.0),
    ("histogram", ["photo", "flat"], "7680x4320", 1.5),
    ("mandelbrot", ["full"], "3840x2160", 120.0),
]
SORT_SPREAD = 1.20  # every key distribution within 20 % of uniform


def fastest(cells, plugin, workload, distribution, size):
    """The plugin's fastest verified cell for one problem, or None."""
    found = [c for c in cells if c["plugin"] == plugin and c["workload"] == workload
             and c["distribution"] == distribution and c["size"] == size and c["status"] == "ok"
             and (c.get("verification") or {}).get("passed")]
    return min(found, key=lambda c: c["time"]["kernel"]["median_ms"], default=None)


def ms(cell):
    return cell["time"]["kernel"]["median_ms"]


def figure(cell, with_percent):
    if cell is None:
        return "missing"
    text = f"{ms(cell):.4g} ms"
    if with_percent and cell.get("percent_of_peak") is not None:
        text += f", {cell['percent_of_peak']:.1f} %"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--plugin", default="openmp")
    parser.add_argument("--serial", default="cpu_serial")
    args = parser.parse_args()
    try:
        with open(args.file) as f:
            cells = json.load(f)["results"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"host_targets_table.py: {args.file}: not a readable results file ({e})")

    rows = []

    def row(target, size, distribution, cell, serial, met):
        variant = cell["variant"] if cell else "-"
        verdict = "missing" if met is None else ("yes" if met else "no")
        rows.append(f"| {target} | {size} | {distribution} | `{variant}` | "
                    f"{figure(cell, True)} | {figure(serial, False)} | {verdict} |")

    for workload, distributions, sizes, percent in PERCENT_TARGETS:
        for size in sizes:
            for distribution in distributions:
                cell = fastest(cells, args.plugin, workload, distribution, size)
                serial = fastest(cells, args.serial, workload, distribution, size)
                met = None if cell is None else cell.get("percent_of_peak", 0.0) >= percent
                row(f"{workload} ≥ {percent:.0f} % of the peak", size, distribution, cell, serial,
                    met)
    for workload, distributions, size, limit in TIME_TARGETS:
        for distribution in distributions:
            cell = fastest(cells, args.plugin, workload, distribution, size)
            serial = fastest(cells, args.serial, workload, distribution, size)
            met = None if cell is None else ms(cell) <= limit
            row(f"{workload} ≤ {limit:g} ms", size, distribution, cell, serial, met)
    uniform = fastest(cells, args.plugin, "sort", "uniform", "2^28")
    for distribution in ["sorted", "reverse", "equal", "few", "top_bit"]:
        cell = fastest(cells, args.plugin, "sort", distribution, "2^28")
        serial = fastest(cells, args.serial, "sort", distribution, "2^28")
        met = None if cell is None or uniform is None else ms(cell) <= SORT_SPREAD * ms(uniform)
        ratio = "" if met is None else f" ({ms(cell) / ms(uniform):.2f}× uniform)"
        row(f"sort ≤ {SORT_SPREAD:.1f}× uniform{ratio}", "2^28", distribution, cell, serial, met)

    print(f"| target | n | distribution | {args.plugin} variant | {args.plugin} | {args.serial} | met |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
