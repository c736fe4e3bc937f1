#!/usr/bin/env python3
"""Draws plugbench results files (Python 3 and matplotlib: Debian's python3-matplotlib).

usage: plot_results.py RESULTS.json [MORE.json ...] [--out DIR] [--format png,svg]

For each workload and input distribution it draws:
  throughput_<workload>_<distribution>   GB/s (G iterations/s for Mandelbrot) against size, log-log:
                                         a line per plugin (its fastest variant at each size) and
                                         file, and each memory space's measured peak as a dashed line
  speedup_<workload>_<distribution>      bars: each plugin's speedup over the run's baseline plugin
                                         at the largest size, a group of bars per file
  crossover_<file>_<workload>_<distribution>
                                         the median time against size of the best CPU cell and of
                                         each GPU plugin, kernel alone (solid) and end to end with
                                         pageable (dashed) or pinned (dotted) host memory, each
                                         crossover marked; from the file's "crossover" array, so
                                         only for runs with a GPU plugin

Cells that did not verify (status other than ok) and numbers that are null are left out.
Exit 0 when something was drawn, 1 when there was nothing to draw, 2 when a file cannot be read,
77 when matplotlib is missing.
"""
import argparse
import json
import math
import os
import re
import sys

SCHEMA_VERSION = 2  # reads 1 (a run of one rank) and 2
TIMING_STYLES = {"kernel": "-", "end_to_end_pageable": "--", "end_to_end_pinned": ":"}
TIMING_NAMES = {"kernel": "kernel", "end_to_end_pageable": "e2e pageable",
                "end_to_end_pinned": "e2e pinned"}
FILE_STYLES = ["-", "--", ":", "-."]


class ResultsError(Exception):
    pass


def number(value):
    """A finite float, or None for null, absent, NaN or a non-number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def field(value, *keys):
    for key in keys:
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        else:
            return None
    return value


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except OSError as e:
        raise ResultsError(f"{path}: cannot read: {e.strerror}")
    except json.JSONDecodeError as e:
        raise ResultsError(f"{path}: malformed or truncated JSON at byte {e.pos}: {e.msg}")
    if not isinstance(document, dict) or "schema_version" not in document \
            or not isinstance(document.get("results"), list):
        raise ResultsError(f"{path}: not a plugbench results file (no schema_version and results)")
    version = document["schema_version"]
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ResultsError(f"{path}: schema_version {version} was written by a newer harness; "
                           f"this tool reads version {SCHEMA_VERSION}")
    if version < 1:
        raise ResultsError(f"{path}: schema_version {version} is older than any this tool reads")
    # A run of several MPI ranks holds each cell once per rank: the plots draw rank 0's.
    ranks = {cell.get("rank") for cell in document["results"] if isinstance(cell, dict)}
    if ranks - {None, 0}:
        print(f"plot_results: {path}: a run of {len(ranks)} ranks; drawing rank 0's cells",
              file=sys.stderr)
        document["results"] = [c for c in document["results"]
                               if isinstance(c, dict) and c.get("rank") in (None, 0)]
    return document


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def labels_for(paths):
    """Short names for the files: their stems, numbered where two are the same."""
    stems = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    return [f"{stem}#{i + 1}" if stems.count(stem) > 1 else stem for i, stem in enumerate(stems)]


def groups(documents):
    """(workload, distribution) pairs in the order they first appear."""
    seen = []
    for document in documents:
        for cell in document["results"]:
            key = (cell.get("workload"), cell.get("distribution"))
            if isinstance(key[0], str) and isinstance(key[1], str) and key not in seen:
                seen.append(key)
    return seen


def verified_cells(document, workload, distribution):
    for cell in document["results"]:
        if cell.get("workload") == workload and cell.get("distribution") == distribution \
                and cell.get("status") == "ok" and isinstance(cell.get("n"), int):
            yield cell


def rate_of(cell):
    """(rate, unit): GB/s where the workload moves bytes, else G work items per second."""
    gbps = number(cell.get("gbps"))
    if gbps is not None:
        return gbps, "GB/s"
    work_rate = number(cell.get("work_rate"))
    unit = field(cell, "traffic", "work_unit")
    if work_rate is not None:
        return work_rate / 1e9, f"G {unit if isinstance(unit, str) else 'items'}/s"
    return None, None


def peaks_of(document):
    """The measured peak of each memory space (the highest where several were measured)."""
    peaks = {}
    for peak in field(document, "context", "peaks") or []:
        space, gbps = field(peak, "memory_space"), number(field(peak, "gbps"))
        if isinstance(space, str) and gbps is not None:
            peaks[space] = max(gbps, peaks.get(space, 0.0))
    return peaks


def save(figure, out, name, formats, written):
    for extension in formats:
        path = os.path.join(out, f"{name}.{extension}")
        metadata = {"Date": None} if extension == "svg" else None
        figure.savefig(path, format=extension, metadata=metadata, bbox_inches="tight")
        written.append(path)


def plot_throughput(plt, documents, labels, workload, distribution, out, formats, written):
    figure, axes = plt.subplots(figsize=(8, 5))
    colors = {}
    unit_seen = None
    drawn = False
    for index, (document, label) in enumerate(zip(documents, labels)):
        style = FILE_STYLES[index % len(FILE_STYLES)]
        best = {}  # plugin -> {n: rate}
        spaces = set()
        for cell in verified_cells(document, workload, distribution):
            rate, unit = rate_of(cell)
            if rate is None or rate <= 0 or cell["n"] <= 0:
                continue
            unit_seen = unit_seen or unit
            plugin = str(cell.get("plugin"))
            points = best.setdefault(plugin, {})
            points[cell["n"]] = max(rate, points.get(cell["n"], 0.0))
            spaces.add(cell.get("memory_space"))
        for plugin, points in best.items():
            sizes = sorted(points)
            name = plugin if len(documents) == 1 else f"{plugin} ({label})"
            line, = axes.plot(sizes, [points[n] for n in sizes], style, marker="o", markersize=3,
                              label=name, color=colors.get(plugin))
            colors.setdefault(plugin, line.get_color())
            drawn = True
        if unit_seen == "GB/s":
            for space, gbps in sorted(peaks_of(document).items()):
                if space not in spaces:
                    continue
                name = f"{space} peak {gbps:.1f} GB/s"
                if len(documents) > 1:
                    name += f" ({label})"
                axes.axhline(gbps, linestyle=style, color="black" if space == "device" else "gray",
                             linewidth=1, label=name)
    if not drawn:
        plt.close(figure)
        return
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xlabel("n (elements; pixels for images)")
    axes.set_ylabel(unit_seen)
    axes.set_title(f"{workload} ({distribution}): throughput, fastest variant per plugin")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    save(figure, out, safe_name(f"throughput_{workload}_{distribution}"), formats, written)
    plt.close(figure)


def plot_speedup(plt, documents, labels, workload, distribution, out, formats, written):
    bars = []  # (file label, n, baseline, {plugin: speedup})
    for document, label in zip(documents, labels):
        cells = [c for c in verified_cells(document, workload, distribution)
                 if number(c.get("speedup")) is not None]
        if not cells:
            continue
        largest = max(c["n"] for c in cells)
        speedups = {}
        for cell in cells:
            if cell["n"] == largest:
                plugin = str(cell.get("plugin"))
                speedups[plugin] = max(number(cell["speedup"]), speedups.get(plugin, 0.0))
        baseline = field(document, "context", "settings", "baseline") or "the baseline"
        bars.append((label, largest, baseline, speedups))
    if not bars:
        return
    plugins = []
    for _, _, _, speedups in bars:
        plugins += [p for p in speedups if p not in plugins]
    figure, axes = plt.subplots(figsize=(max(6, 1.2 * len(plugins) * len(bars)), 5))
    width = 0.8 / len(bars)
    for index, (label, largest, baseline, speedups) in enumerate(bars):
        positions = [i + index * width for i, p in enumerate(plugins) if p in speedups]
        values = [speedups[p] for p in plugins if p in speedups]
        name = f"{label}: n = {largest}, against {baseline}"
        drawn = axes.bar(positions, values, width, label=name)
        axes.bar_label(drawn, labels=[f"{v:.2g}x" for v in values], fontsize="small")
    axes.axhline(1.0, color="black", linewidth=1)
    axes.set_xticks([i + width * (len(bars) - 1) / 2 for i in range(len(plugins))], plugins)
    axes.set_yscale("log")
    axes.set_ylabel("speedup (baseline median / this one)")
    axes.set_title(f"{workload} ({distribution}): speedup at the largest size, fastest variant")
    axes.legend(fontsize="small")
    save(figure, out, safe_name(f"speedup_{workload}_{distribution}"), formats, written)
    plt.close(figure)


def plot_crossover(plt, document, label, workload, distribution, out, formats, written):
    entries = [e for e in document.get("crossover") or []
               if e.get("workload") == workload and e.get("distribution") == distribution]
    if not entries:
        return
    figure, axes = plt.subplots(figsize=(8, 5))
    cpu = {}
    colors = {}
    for entry in entries:
        series = [p for p in entry.get("series") or []
                  if isinstance(p.get("n"), int) and p["n"] > 0]
        for point in series:
            cpu_ms = number(point.get("cpu_ms"))
            if cpu_ms is not None and cpu_ms > 0:
                cpu[point["n"]] = cpu_ms
        points = [(p["n"], number(p.get("gpu_ms"))) for p in series]
        points = [(n, ms) for n, ms in points if ms is not None and ms > 0]
        if not points:
            continue
        plugin, timing = str(entry.get("plugin")), entry.get("timing")
        line, = axes.plot([n for n, _ in points], [ms for _, ms in points],
                          TIMING_STYLES.get(timing, "-."), marker="o", markersize=3,
                          color=colors.get(plugin), label=f"{plugin} {TIMING_NAMES.get(timing, timing)}")
        colors.setdefault(plugin, line.get_color())
        crossing = entry.get("n")
        if entry.get("where") in ("within", "below_range") and isinstance(crossing, int):
            at = dict(points).get(crossing)
            if at is not None:
                axes.plot([crossing], [at], marker="*", markersize=14, color=line.get_color(),
                          markeredgecolor="black", linestyle="none")
                axes.annotate(f"{'<= ' if entry['where'] == 'below_range' else ''}{crossing}",
                              (crossing, at), textcoords="offset points", xytext=(6, -12),
                              fontsize="small")
    if cpu:
        sizes = sorted(cpu)
        axes.plot(sizes, [cpu[n] for n in sizes], "-", color="black", linewidth=2, marker="s",
                  markersize=3, label="best CPU (kernel; data in host memory)")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xlabel("n (elements; pixels for images)")
    axes.set_ylabel("median time (ms)")
    axes.set_title(f"{workload} ({distribution}): where the GPU pays off (* crossover) [{label}]")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    save(figure, out, safe_name(f"crossover_{label}_{workload}_{distribution}"), formats, written)
    plt.close(figure)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Draws throughput, speedup and crossover charts from plugbench results files.")
    parser.add_argument("files", nargs="+", help="results files (results/schema.json)")
    parser.add_argument("--out", default="plots", help="folder for the images (default: plots)")
    parser.add_argument("--format", default="png,svg", help="comma list of png, svg (default both)")
    args = parser.parse_args(argv)
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    if not formats or any(f not in ("png", "svg") for f in formats):
        print(f"plot_results: --format '{args.format}' is not a list of png, svg", file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "plugbench"
        import matplotlib.pyplot as plt
    except ImportError:
        print("skipped: matplotlib is not installed (Debian: python3-matplotlib)")
        return 77
    try:
        documents = [load(path) for path in args.files]
    except ResultsError as e:
        print(f"plot_results: {e}", file=sys.stderr)
        return 2
    labels = labels_for(args.files)
    os.makedirs(args.out, exist_ok=True)
    written = []
    for workload, distribution in groups(documents):
        plot_throughput(plt, documents, labels, workload, distribution, args.out, formats, written)
        plot_speedup(plt, documents, labels, workload, distribution, args.out, formats, written)
        for document, label in zip(documents, labels):
            plot_crossover(plt, document, label, workload, distribution, args.out, formats,
                           written)
    for path, document in zip(args.files, documents):
        if not document.get("crossover"):
            print(f"{path}: no crossover chart (the run had no GPU plugin and CPU plugin both)")
    for path in written:
        print(path)
    if not written:
        print("plot_results: nothing to draw (no verified cells with times)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
