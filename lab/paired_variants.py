#!/usr/bin/env python3
"""paired_variants.py FILE.json BASE CELL[,CELL...]: each cell's kernel time over BASE's, per
problem (cells named PLUGIN/VARIANT, e.g. cuda_optimized/onesweep), as the median of the per-round
ratios with a distribution-free 95 % interval from order statistics (docs/measurement.md). A run
made with `--baseline PLUGIN/VARIANT` has these as its paired speedups (inverted); this reads them
from a run made without, whose speedups were over another plugin. Cells measured in rounds of their
own, and ranks other than 0, are left out. A lab reading for issue #38's sort shapes."""
import json
import statistics
import sys
from math import comb


def interval(ratios):
    ratios = sorted(ratios)
    n = len(ratios)
    for k in range(n // 2, -1, -1):
        if sum(comb(n, i) for i in range(k, n - k)) / 2**n >= 0.95:
            return ratios[k], ratios[n - 1 - k]
    return ratios[0], ratios[-1]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, base, variants = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    problems = {}
    for cell in document["results"]:
        kernel = (cell.get("time") or {}).get("kernel")
        rounds = cell.get("rounds")
        # A cell measured in rounds of its own shares no round with the others.
        if cell.get("status") != "ok" or not kernel or not rounds or rounds.get("apart"):
            continue
        if cell.get("rank") not in (None, 0):
            continue
        key = (cell["workload"], cell["distribution"], cell["n"], cell["size"])
        problems.setdefault(key, {})[f'{cell["plugin"]}/{cell["variant"]}'] = dict(
            zip(rounds["round"], kernel["samples_ms"]))
    header = " | ".join(f"{v} / {base}" for v in variants)
    print(f"| workload | size | distribution | {header} |")
    print("|---" * (3 + len(variants)) + "|")
    for (workload, distribution, n, size), cells in sorted(problems.items()):
        if base not in cells:
            continue
        row = []
        for variant in variants:
            times = cells.get(variant, {})
            ratios = [times[r] / cells[base][r] for r in times if r in cells[base]]
            if not ratios:
                row.append("-")
                continue
            low, high = interval(ratios)
            row.append(f"{statistics.median(ratios):.3f} [{low:.3f}, {high:.3f}]")
        print(f"| {workload} | {size} | {distribution} | " + " | ".join(row) + " |")


main()
