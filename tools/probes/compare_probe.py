#!/usr/bin/env python3
"""compare_probe.py: sets the harness's kernel medians beside the standalone probes' figures.

Usage: compare_probe.py RESULTS.json [RESULTS2.json ...] PROBE.csv [PROBE2.csv ...]
                        [--tolerance 0.05] [--markdown] [--cache cold|warm]

Each RESULTS.json is one harness run, so one cache mode (context.settings.cache, or a cell's own
"cache" where it has one); probe rows of the same cache are matched with its cells on workload and n:
  host reduce -> openmp/parallel_for (mod100)   gpu reduce -> cub/library (mod100)
  host dot    -> openmp/parallel_for (uniform)  gpu scan   -> cub/library (random)
                                                gpu sort   -> cub/library (uniform)
The probes generate only those distributions (the harness's generators and seeds), so cells of
another distribution are listed as unmatched rather than compared with data they were not run on.
Several runs of either side (taken in turn, tools/probes/host_interleave.sh) are pooled: each
side's figure is the median of all its samples (of the runs' medians where a probe file has no
samples_ms column), so a host whose speed drifts between runs moves both sides alike. "spread" is
how far one side's run medians lie apart (max / min - 1).
A row agrees when |harness / probe - 1| <= tolerance. Exit status: 0 when every matched row
agrees, 1 when one does not, 2 on a usage error or an unreadable file. Rows found on one side only
are listed as unmatched and do not fail the comparison. Standard library only.
"""

import argparse
import csv
import json
import math
import statistics
import sys

# (probe, workload) -> (plugin, variant, distribution the probe generates)
MAPPING = {
    ("host", "reduce"): ("openmp", "parallel_for", "mod100"),
    ("host", "dot"): ("openmp", "parallel_for", "uniform"),
    ("gpu", "reduce"): ("cub", "library", "mod100"),
    ("gpu", "scan"): ("cub", "library", "random"),
    ("gpu", "sort"): ("cub", "library", "uniform"),
}
# The harness cells the probes stand for: (plugin, variant, workload) -> (probe, distribution).
COVERED = {(p, v, w): (probe, d) for (probe, w), (p, v, d) in MAPPING.items()}

REQUIRED_COLUMNS = ("probe", "workload", "n", "cache", "median_ms", "cv")


class UsageError(Exception):
    pass


def number(value):
    """A float, or None for an empty, null or non-numeric field."""
    if value is None or value == "":
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def load_results(path, cache_override):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise UsageError(f"cannot read results file {path}: {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise UsageError(f"results file {path} is not JSON: {e}") from e
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise UsageError(f"results file {path} has no top-level \"results\" array")
    settings = (data.get("context") or {}).get("settings") or {}
    run_cache = cache_override or settings.get("cache")
    cells = []
    for cell in data["results"]:
        if not isinstance(cell, dict):
            continue
        cache = cell.get("cache") or run_cache
        if cache is None:
            raise UsageError(
                f"results file {path} names no cache mode (context.settings.cache): "
                "give --cache cold|warm")
        cells.append((cell, cache))
    return cells


def samples_of(text):
    """The samples_ms column's values, or None where it is absent or unreadable."""
    if not text:
        return None
    values = [number(v) for v in text.split()]
    return None if not values or None in values else values


def load_probe(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise UsageError(f"probe file {path} lacks the column(s) {', '.join(missing)}")
            rows = []
            for line, row in enumerate(reader, start=2):
                try:
                    n = int(row["n"])
                except (TypeError, ValueError):
                    raise UsageError(f"probe file {path}, line {line}: n is not an integer")
                rows.append({
                    "probe": row["probe"],
                    "workload": row["workload"],
                    "n": n,
                    "cache": row["cache"],
                    "median_ms": number(row["median_ms"]),
                    "cv": number(row["cv"]),
                    "samples": samples_of(row.get("samples_ms")),
                    "source": path,
                })
            return rows
    except OSError as e:
        raise UsageError(f"cannot read probe file {path}: {e.strerror}") from e
    except csv.Error as e:
        raise UsageError(f"probe file {path} is not CSV: {e}") from e


def fmt(x, digits=4):
    if x is None:
        return "-"
    return f"{x:.{digits}g}" if abs(x) < 1e4 else f"{x:.0f}"


class Pool:
    """One side's runs of one cell: each run's median and cv, and every sample where known."""

    def __init__(self):
        self.medians, self.cvs, self.samples = [], [], []
        self.all_samples = True  # false once a run came without its samples

    def add(self, median, cv, samples):
        if median is None:
            return
        self.medians.append(median)
        if cv is not None:
            self.cvs.append(cv)
        if samples:
            self.samples.extend(samples)
        else:
            self.all_samples = False

    def median(self):
        """The median of every sample of every run; the median of the runs' medians where a run
        did not list its samples."""
        values = self.samples if self.all_samples and self.samples else self.medians
        return statistics.median(values) if values else None

    def spread(self):
        """How far the runs' medians lie apart: max / min - 1 (0 for one run)."""
        return max(self.medians) / min(self.medians) - 1 if self.medians else None

    def cv(self):
        """The median of the runs' cvs."""
        return statistics.median(self.cvs) if self.cvs else None


def compare(cells, probe_rows, tolerance):
    """Matched rows, unmatched notes: each side's runs of a cell pooled (Pool)."""
    probes = {}
    for row in probe_rows:
        target = MAPPING.get((row["probe"], row["workload"]))
        if target is None:
            continue
        plugin, variant, _ = target
        key = (plugin, variant, row["workload"], row["n"], row["cache"])
        probes.setdefault(key, Pool()).add(row["median_ms"], row["cv"], row["samples"])
        probes[key].source = row["source"]
        probes[key].probe = row["probe"]

    harness, statuses, unmatched = {}, {}, []
    for cell, cache in cells:
        key3 = (cell.get("plugin"), cell.get("variant"), cell.get("workload"))
        if key3 not in COVERED:
            continue  # a cell no probe stands for: not a candidate at all
        probe_name, distribution = COVERED[key3]
        n = cell.get("n")
        label = f"{key3[2]} n={n} {cache} {key3[0]}/{key3[1]} ({cell.get('distribution')})"
        if cell.get("distribution") != distribution:
            unmatched.append(f"harness only: {label}: the {probe_name} probe times "
                             f"{distribution} only")
            continue
        kernel = (cell.get("time") or {}).get("kernel") or {}
        median = number(kernel.get("median_ms"))
        if median is None:
            unmatched.append(f"harness only: {label}: no kernel time (status {cell.get('status')})")
            continue
        key = key3 + (n, cache)
        if key not in probes:
            unmatched.append(f"harness only: {label}: no {probe_name} probe row")
            continue
        samples = kernel.get("samples_ms")
        samples = [number(v) for v in samples] if isinstance(samples, list) else None
        harness.setdefault(key, Pool()).add(median, number(kernel.get("cv")),
                                            None if not samples or None in samples else samples)
        statuses.setdefault(key, set()).add(cell.get("status"))

    matched = []
    for key, side in harness.items():
        probe = probes[key]
        harness_ms, probe_ms = side.median(), probe.median()
        ratio = harness_ms / probe_ms if probe_ms else None
        agree = ratio is not None and abs(ratio - 1) <= tolerance
        verdict = "agree" if agree else "DISAGREE"
        odd = sorted(s for s in statuses[key] if s != "ok")
        if odd:
            verdict += f" (cell {', '.join(map(str, odd))})"
        matched.append({
            "workload": key[2], "n": key[3], "cache": key[4], "plugin": f"{key[0]}/{key[1]}",
            "runs": f"{len(side.medians)}/{len(probe.medians)}",
            "harness_ms": harness_ms, "probe_ms": probe_ms, "ratio": ratio,
            "harness_cv": side.cv(), "probe_cv": probe.cv(),
            "harness_spread": side.spread(), "probe_spread": probe.spread(),
            "verdict": verdict, "agree": agree,
        })
    matched.sort(key=lambda m: (m["plugin"], m["workload"], m["cache"], m["n"]))
    for key, probe in probes.items():
        if key not in harness:
            unmatched.append(f"probe only: {probe.probe} {key[2]} n={key[3]} {key[4]} "
                             f"({probe.source})")
    return matched, unmatched


HEADERS = ("workload", "n", "cache", "plugin", "runs", "harness ms", "probe ms", "harness/probe",
           "harness cv", "probe cv", "harness spread", "probe spread", "verdict")


def table_rows(matched):
    for m in matched:
        yield (m["workload"], str(m["n"]), m["cache"], m["plugin"], m["runs"],
               fmt(m["harness_ms"]), fmt(m["probe_ms"]), fmt(m["ratio"], 3),
               fmt(m["harness_cv"], 2), fmt(m["probe_cv"], 2), fmt(m["harness_spread"], 2),
               fmt(m["probe_spread"], 2), m["verdict"])


def print_table(matched, markdown):
    rows = list(table_rows(matched))
    if markdown:
        print("| " + " | ".join(HEADERS) + " |")
        print("|" + "|".join("---" for _ in HEADERS) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(HEADERS)]
    print("  ".join(h.ljust(w) for h, w in zip(HEADERS, widths)).rstrip())
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def main(argv):
    parser = argparse.ArgumentParser(
        description="Compare harness kernel medians with the standalone probes' medians.")
    parser.add_argument("files", metavar="FILE", nargs="+",
                        help="harness results (.json) and probe output (any other name)")
    parser.add_argument("--tolerance", type=float, default=0.05,
                        help="largest |harness/probe - 1| that agrees (default 0.05)")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    parser.add_argument("--cache", choices=("cold", "warm"),
                        help="the results file's cache mode, where it does not say")
    args = parser.parse_args(argv)  # exits 2 on a usage error
    if not args.tolerance >= 0:
        parser.error("--tolerance must be a number >= 0")

    results = [f for f in args.files if f.endswith(".json")]
    probe_files = [f for f in args.files if not f.endswith(".json")]
    if not results or not probe_files:
        parser.error("give at least one results file (.json) and one probe file")
    try:
        cells = [c for path in results for c in load_results(path, args.cache)]
        probe_rows = [row for path in probe_files for row in load_probe(path)]
    except UsageError as e:
        print(f"compare_probe.py: {e}", file=sys.stderr)
        return 2

    caches = {cache for _, cache in cells}
    other = [r for r in probe_rows if r["cache"] not in caches]
    if other:
        print(f"compare_probe.py: {len(other)} probe row(s) of another cache mode than the "
              f"results' ({', '.join(sorted(caches)) or 'none'}) left out", file=sys.stderr)
    probe_rows = [r for r in probe_rows if r["cache"] in caches]

    matched, unmatched = compare(cells, probe_rows, args.tolerance)
    print_table(matched, args.markdown)
    if unmatched:
        print()
        print(f"unmatched ({len(unmatched)}):")
        for note in unmatched:
            print(f"- {note}" if args.markdown else f"  {note}")
    disagree = sum(1 for m in matched if not m["agree"])
    print()
    print(f"{len(matched)} matched, {len(matched) - disagree} agree, {disagree} disagree "
          f"(tolerance {args.tolerance:g}), {len(unmatched)} unmatched")
    if not matched:
        print("compare_probe.py: no row matched", file=sys.stderr)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
