#!/usr/bin/env python3
"""How far two runs of the same build agree on their paired figures (issue #33, docs/measurement.md).

For every cell of A.json that B.json has too, with a paired speedup over a baseline that is not
itself, at n >= --min-n: the median time of each run (how far the absolute figure moved), the
paired speedup of each (the median of the per-round ratios) and the paired % of peak of each (host
cells: the rate over the same round's pass of the reference loop). The last lines count the cells
whose paired speedups agree within --speedup-tolerance and whose % of peak agree within
--peak-points.

usage: tools/paired_agreement.py A.json B.json [--plugin openmp] [--min-n 4194304]
"""
import argparse
import json
import sys


def cells_of(path):
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as error:
        sys.exit(f"paired_agreement: cannot read {path}: {error}")
    cells = {}
    for cell in document.get("results", []):
        key = (cell.get("workload"), cell.get("distribution"), cell.get("n"), cell.get("plugin"),
               cell.get("variant"))
        cells.setdefault(key, cell)
    return cells


def paired(cell, figure):
    value = (cell.get("paired") or {}).get(figure) or {}
    return value.get("median")


def median_ms(cell):
    return ((cell.get("time") or {}).get("kernel") or {}).get("median_ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--plugin", help="only this plugin's cells (e.g. openmp)")
    parser.add_argument("--min-n", type=int, default=1 << 22)
    parser.add_argument("--speedup-tolerance", type=float, default=0.05)
    parser.add_argument("--peak-points", type=float, default=5.0)
    options = parser.parse_args()
    first, second = cells_of(options.first), cells_of(options.second)
    rows = []
    for key, a in first.items():
        b = second.get(key)
        workload, distribution, n, plugin, variant = key
        if b is None or not isinstance(n, int) or n < options.min_n:
            continue
        if options.plugin and plugin != options.plugin:
            continue
        if a.get("baseline") == f"{plugin}/{variant}":
            continue
        speedups = paired(a, "speedup"), paired(b, "speedup")
        times = median_ms(a), median_ms(b)
        if None in speedups or None in times or min(speedups) <= 0 or min(times) <= 0:
            continue
        peaks = paired(a, "percent_of_peak"), paired(b, "percent_of_peak")
        rows.append((workload, distribution, n, plugin, variant, times, speedups, peaks))
    if not rows:
        sys.exit("paired_agreement: no cell of both files has a paired speedup at that size")
    print(f"{'workload':10} {'distribution':12} {'n':>10} {'plugin/variant':34} "
          f"{'ms A':>9} {'ms B':>9} {'moved':>7} {'speedup A':>9} {'B':>7} {'apart':>6} "
          f"{'%peak A':>7} {'B':>6} {'points':>6}")
    speedups_agree = peaks_agree = peaks_compared = 0
    for workload, distribution, n, plugin, variant, times, speedups, peaks in rows:
        moved = times[1] / times[0] - 1
        apart = speedups[1] / speedups[0] - 1
        speedups_agree += abs(apart) <= options.speedup_tolerance
        points = ""
        if None not in peaks:
            peaks_compared += 1
            difference = peaks[1] - peaks[0]
            peaks_agree += abs(difference) <= options.peak_points
            points = f"{difference:+6.1f}"
        peak_text = [f"{p:.1f}" if p is not None else "-" for p in peaks]
        print(f"{workload:10} {distribution:12} {n:>10} {plugin + '/' + variant:34} "
              f"{times[0]:9.4g} {times[1]:9.4g} {100 * moved:+6.1f}% {speedups[0]:9.3f} "
              f"{speedups[1]:7.3f} {100 * apart:+5.1f}% {peak_text[0]:>7} {peak_text[1]:>6} "
              f"{points:>6}")
    print(f"paired speedups within {100 * options.speedup_tolerance:g} %: {speedups_agree} of "
          f"{len(rows)} cells")
    print(f"paired % of peak within {options.peak_points:g} points: {peaks_agree} of "
          f"{peaks_compared} cells with one")


if __name__ == "__main__":
    main()
