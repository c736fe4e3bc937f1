#!/usr/bin/env python3
"""host_targets_table.py: issue #37's targets for the `openmp` plugin against one results file, as
a markdown table: per target, the fastest verified `openmp` variant's figure, `cpu_serial`'s beside
it, and whether the target is met. The sort's two targets (the uniform time and the spread over key
distributions) are judged on one variant: the fastest on uniform keys of those that hold both, else
the fastest on uniform keys; every variant's figures are listed under the table.
Cells that are not ok, not verified or without a time do not count; a figure the file lacks (a
null percent of peak) gives "unknown".

usage: host_targets_table.py RESULTS.json [--plugin openmp] [--serial cpu_serial]

The file must hold the sizes the targets name (made with the command in docs/performance.md); a
target whose cells are missing is reported as such, not skipped. Percentages are the file's own
percent_of_peak: of the host's read rate (reduce, dot) or copy rate (the rest) that the same run
calibrated, over each workload's minimum traffic. A sort's figure also gives its keys a second."""
import argparse
import json
import sys

PERCENT_TARGETS = [  # workload, distributions, sizes, minimum % of the peak
    ("reduce", ["mod100"], ["2^26", "2^28"], 85.0),
    ("dot", ["uniform"], ["2^26", "2^28"], 90.0),
    ("scan", ["small", "random"], ["2^26", "2^28"], 75.0),
    ("compact", ["keep50", "keep1", "keep99"], ["2^28"], 65.0),
]
SORT_LIMIT_MS = 224.0  # uniform keys at 2^28
TIME_TARGETS = [  # workload, distributions, size, at most ms
    ("histogram", ["photo", "flat"], "7680x4320", 1.5),
    ("mandelbrot", ["full"], "3840x2160", 120.0),
]
SORT_SPREAD = 1.20  # every key distribution within 20 % of uniform
SORT_DISTRIBUTIONS = ["sorted", "reverse", "equal", "few", "top_bit"]


def usable(cell):
    """An ok, verified cell with a positive median time; anything else does not count."""
    if not isinstance(cell, dict) or cell.get("status") != "ok":
        return False
    if not (cell.get("verification") or {}).get("passed"):
        return False
    median = ((cell.get("time") or {}).get("kernel") or {}).get("median_ms")
    return isinstance(median, (int, float)) and median > 0


def matching(cells, plugin, workload, distribution, size, variant=None):
    return [c for c in cells if c.get("plugin") == plugin and c.get("workload") == workload
            and c.get("distribution") == distribution and c.get("size") == size
            and (variant is None or c.get("variant") == variant)]


def fastest(cells, plugin, workload, distribution, size, variant=None):
    """The plugin's fastest verified cell for one problem (of one variant if given), or None."""
    return min(matching(cells, plugin, workload, distribution, size, variant), key=ms,
               default=None)


def ms(cell):
    return cell["time"]["kernel"]["median_ms"]


def percent(cell):
    value = cell.get("percent_of_peak")
    return value if isinstance(value, (int, float)) else None


def keys(cell):
    """The cell's element count: its n, or 2^k from its size."""
    if isinstance(cell.get("n"), int):
        return cell["n"]
    base, _, power = str(cell.get("size", "")).partition("^")
    return int(base) ** int(power) if base.isdigit() and power.isdigit() else None


def figure(cell, with_percent):
    if cell is None:
        return "missing"
    text = f"{ms(cell):.4g} ms"
    if cell.get("workload") == "sort" and keys(cell):
        text += f", {keys(cell) / ms(cell) / 1e6:.2f} G keys/s"
    if with_percent and percent(cell) is not None:
        text += f", {percent(cell):.1f} %"
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
        if not isinstance(cells, list):
            raise TypeError("'results' is not a list")
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"host_targets_table.py: {args.file}: not a readable results file ({e})")
    cells = [c for c in cells if usable(c)]

    rows = []

    def row(target, size, distribution, cell, serial, met):
        variant = cell.get("variant", "?") if cell else "-"
        verdict = "missing" if cell is None else ("unknown" if met is None else
                                                  ("yes" if met else "no"))
        rows.append(f"| {target} | {size} | {distribution} | `{variant}` | "
                    f"{figure(cell, True)} | {figure(serial, False)} | {verdict} |")

    for workload, distributions, sizes, floor in PERCENT_TARGETS:
        for size in sizes:
            for distribution in distributions:
                cell = fastest(cells, args.plugin, workload, distribution, size)
                serial = fastest(cells, args.serial, workload, distribution, size)
                met = None if cell is None or percent(cell) is None else percent(cell) >= floor
                row(f"{workload} ≥ {floor:.0f} % of the peak", size, distribution, cell, serial,
                    met)
    for workload, distributions, size, limit in TIME_TARGETS:
        for distribution in distributions:
            cell = fastest(cells, args.plugin, workload, distribution, size)
            serial = fastest(cells, args.serial, workload, distribution, size)
            met = None if cell is None else ms(cell) <= limit
            row(f"{workload} ≤ {limit:g} ms", size, distribution, cell, serial, met)
    # The sort's targets are one kernel's: its uniform time and each distribution against it.
    sort_figures = {}  # variant: (uniform cell, [cell per distribution], worst ratio)
    for name in sorted({c.get("variant") for c in cells if c.get("plugin") == args.plugin
                        and c.get("workload") == "sort" and c.get("size") == "2^28"}):
        base = fastest(cells, args.plugin, "sort", "uniform", "2^28", name)
        times = [fastest(cells, args.plugin, "sort", d, "2^28", name) for d in SORT_DISTRIBUTIONS]
        if base is None:
            continue
        worst = None if any(t is None for t in times) else max(ms(t) / ms(base) for t in times)
        sort_figures[name] = (base, times, worst)

    def holds_both(name):  # by the same comparisons as the rows
        base, times, worst = sort_figures[name]
        return worst is not None and ms(base) <= SORT_LIMIT_MS and all(
            ms(t) <= SORT_SPREAD * ms(base) for t in times)

    by_uniform = sorted(sort_figures, key=lambda name: ms(sort_figures[name][0]))
    judged = next((name for name in by_uniform if holds_both(name)),
                  by_uniform[0] if by_uniform else None)
    uniform, times = (sort_figures[judged][0], sort_figures[judged][1]) if judged else (None, [])
    serial = fastest(cells, args.serial, "sort", "uniform", "2^28")
    row(f"sort ≤ {SORT_LIMIT_MS:g} ms", "2^28", "uniform", uniform, serial,
        None if uniform is None else ms(uniform) <= SORT_LIMIT_MS)
    for distribution, cell in zip(SORT_DISTRIBUTIONS, times or [None] * len(SORT_DISTRIBUTIONS)):
        serial = fastest(cells, args.serial, "sort", distribution, "2^28")
        met = None if cell is None or uniform is None else ms(cell) <= SORT_SPREAD * ms(uniform)
        ratio = "" if met is None else f" ({ms(cell) / ms(uniform):.3f}× uniform)"
        row(f"sort ≤ {SORT_SPREAD:.1f}× uniform{ratio}", "2^28", distribution, cell, serial, met)
    # Every variant's figures, so that one meeting one target but not the other shows.
    spreads = [f"`{name}` {ms(base):.4g} ms uniform, " +
               ("a distribution missing" if worst is None else f"worst {worst:.3f}×")
               for name, (base, _, worst) in sort_figures.items()]
    print(f"| target | n | distribution | {args.plugin} variant | {args.plugin} | {args.serial} | met |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if spreads:
        print()
        print("Sort, each variant's uniform time and its slowest distribution against it: " +
              "; ".join(spreads) + ".")


if __name__ == "__main__":
    main()
