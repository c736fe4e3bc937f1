#!/usr/bin/env python3
"""headline_table.py: one markdown table of median kernel times at one size, a row per workload and
distribution, a column per plugin (its fastest verified variant), from one or more results files.

usage: headline_table.py RESULTS.json [MORE.json ...] [--n 2^28] [--workload-n WORKLOAD=N ...]
Cells that are not `ok` are left out; each entry is "time (GB/s or G iterations/s)"."""
import argparse
import json
import sys


def size_value(text):
    return 2 ** int(text[2:]) if text.startswith("2^") else int(text)


def three_digits(value):
    """1234 -> "1234", 42.8 -> "42.8", 5.92 -> "5.92": no exponent notation in a table."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--n", default="2^28", help="problem size in elements (pixels), e.g. 2^28")
    parser.add_argument("--workload-n", action="append", default=[],
                        help="a size for one workload, e.g. mandelbrot=8294400 (repeatable)")
    args = parser.parse_args()
    wanted = size_value(args.n)
    per_workload = {w: size_value(n) for w, n in (item.split("=") for item in args.workload_n)}

    best = {}  # (workload, distribution) -> plugin -> cell
    order, plugins = [], []
    for path in args.files:
        try:
            with open(path) as f:
                document = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"headline_table.py: {path}: {e}")
        for cell in document.get("results", []):
            n = per_workload.get(cell["workload"], wanted)
            # A run of several MPI ranks: rank 0's cells.
            if cell.get("n") != n or cell.get("status") != "ok" or cell.get("rank", 0) != 0:
                continue
            key = (cell["workload"], cell["distribution"])
            if key not in best:
                best[key] = {}
                order.append(key)
            if cell["plugin"] not in plugins:
                plugins.append(cell["plugin"])
            time = cell["time"]["kernel"]["median_ms"]
            held = best[key].get(cell["plugin"])
            if held is None or time < held["time"]["kernel"]["median_ms"]:
                best[key][cell["plugin"]] = cell

    print("| workload | distribution | n | " + " | ".join(plugins) + " |")
    print("|---|---|---|" + "---|" * len(plugins))
    canonical = ["reduce", "dot", "histogram", "scan", "compact", "sort", "mandelbrot"]
    order.sort(key=lambda k: canonical.index(k[0]) if k[0] in canonical else len(canonical))
    for key in order:
        entries = []
        n = None
        for plugin in plugins:
            cell = best[key].get(plugin)
            if cell is None:
                entries.append("-")
                continue
            n = cell.get("size") or n
            time = cell["time"]["kernel"]["median_ms"]
            if cell.get("gbps"):
                rate = f"{three_digits(cell['gbps'])} GB/s"
            else:
                rate = f"{three_digits(cell.get('work_rate', 0) / 1e9)} G it/s"
            entries.append(f"{time:.4g} ms ({rate})")
        print(f"| {key[0]} | {key[1]} | {n} | " + " | ".join(entries) + " |")


if __name__ == "__main__":
    main()
