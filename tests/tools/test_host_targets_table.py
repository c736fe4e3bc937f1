#!/usr/bin/env python3
"""Test of tools/host_targets_table.py on a results file made here: targets met (at the limit too),
missed, missing and unknown (no peak), the sort's two targets judged on one variant (one that holds
both before a faster one that does not), cells that are not ok, not verified or without a time left
out, and unreadable files refused.

usage: test_host_targets_table.py TOOL
Exit 0 passed, 1 failed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def cell(plugin, workload, distribution, size, ms, percent=None, passed=True, variant="v"):
    return {"plugin": plugin, "workload": workload, "distribution": distribution, "size": size,
            "variant": variant, "status": "ok", "percent_of_peak": percent,
            "verification": {"passed": passed}, "time": {"kernel": {"median_ms": ms}}}


def main(tool):
    cells = [
        cell("openmp", "reduce", "mod100", "2^26", 3.0, 90.0, variant="unrolled"),
        cell("openmp", "reduce", "mod100", "2^26", 3.5, 80.0, variant="parallel_for"),
        cell("cpu_serial", "reduce", "mod100", "2^26", 45.0, 6.0),
        cell("openmp", "reduce", "mod100", "2^28", 14.0, 80.0),
        cell("openmp", "dot", "uniform", "2^26", 5.0, 90.0),  # exactly at the target: met
        cell("openmp", "dot", "uniform", "2^28", 19.0, None),  # no peak known: unknown
        dict(cell("openmp", "scan", "small", "2^26", 1.0, 99.0), status="error"),  # not ok
        cell("openmp", "sort", "uniform", "2^28", 224.0, variant="msd_buckets"),  # at the limit
        cell("openmp", "sort", "few", "2^28", 260.0, variant="msd_buckets"),
        cell("openmp", "sort", "sorted", "2^28", 280.0, variant="msd_buckets"),
        cell("openmp", "sort", "sorted", "2^28", 1.0, passed=False, variant="wrong"),
        # Faster on few, slower on uniform: the spread is judged on msd_buckets alone.
        cell("openmp", "sort", "uniform", "2^28", 300.0, variant="lsd"),
        cell("openmp", "sort", "few", "2^28", 100.0, variant="lsd"),
        {"plugin": "openmp", "workload": "sort", "status": "ok"},  # no size, no time: ignored
        dict(cell("openmp", "sort", "reverse", "2^28", 1.0), time=None),
    ]
    folder = tempfile.mkdtemp(prefix="plugbench_targets_")
    rows = {}

    def table_of(name, results):
        """The tool's run on a file of these cells; its rows by (target, n, distribution)."""
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            json.dump({"schema_version": 2, "results": results}, f)
        run = subprocess.run([sys.executable, tool, path], capture_output=True, text=True)
        rows.clear()
        rows.update({tuple(part.strip() for part in line.split("|")[1:4]): line
                     for line in run.stdout.splitlines() if line.startswith("| ")})
        return run

    result = table_of("r.json", cells)

    def verdict(target, size, distribution):
        for (t, s, d), line in rows.items():
            if t.startswith(target) and s == size and d == distribution:
                return line.rstrip(" |").rsplit("|", 1)[1].strip(), line
        return None, None

    failures = []
    expected = [
        ("reduce ≥ 85", "2^26", "mod100", "yes", "`unrolled` | 3 ms, 90.0 % | 45 ms"),
        ("reduce ≥ 85", "2^28", "mod100", "no", "14 ms, 80.0 %"),
        ("dot ≥ 90", "2^26", "uniform", "yes", "5 ms, 90.0 %"),
        ("dot ≥ 90", "2^28", "uniform", "unknown", "19 ms |"),
        ("scan ≥ 75", "2^26", "small", "missing", "missing"),
        ("sort ≤ 224 ms", "2^28", "uniform", "yes", "`msd_buckets` | 224 ms, 1.20 G keys/s"),
        ("sort ≤ 1.2× uniform (1.161× uniform)", "2^28", "few", "yes", "`msd_buckets` | 260 ms"),
        ("sort ≤ 1.2× uniform (1.250× uniform)", "2^28", "sorted", "no", "280 ms"),
        ("sort ≤ 1.2× uniform", "2^28", "reverse", "missing", "missing"),
        ("sort ≤ 1.2× uniform", "2^28", "equal", "missing", "missing"),
    ]
    for target, size, distribution, want, text in expected:
        got, line = verdict(target, size, distribution)
        if got != want or text not in (line or ""):
            failures.append(f"{target} {size} {distribution}: want {want!r} with {text!r}, "
                            f"got {line!r}")
    if result.returncode != 0:
        failures.append(f"exit {result.returncode}: {result.stderr}")

    # A variant that holds both sort targets is judged before a faster one whose spread misses.
    spread = [cell("openmp", "sort", d, "2^28", ms, variant=v)
              for v, times in [("fast", [150, 400, 150, 150, 150, 150]),
                               ("even", [200, 210, 220, 180, 190, 239])]
              for d, ms in zip(["uniform", "few", "sorted", "reverse", "equal", "top_bit"], times)]
    table = table_of("spread.json", spread)
    for target, size, distribution, want, text in [
            ("sort ≤ 224 ms", "2^28", "uniform", "yes", "`even` | 200 ms"),
            ("sort ≤ 1.2× uniform (1.195× uniform)", "2^28", "top_bit", "yes", "`even` | 239 ms")]:
        got, line = verdict(target, size, distribution)
        if got != want or text not in (line or ""):
            failures.append(f"one variant for both: {target} {distribution}: want {want!r} with "
                            f"{text!r}, got {line!r}")
    if "`fast` 150 ms uniform, worst 2.667×" not in table.stdout:
        failures.append(f"the faster variant's spread is not listed: {table.stdout!r}")
    expected.append(("one variant for both", "", "", "", ""))

    for name, text in [("broken.json", "{not json"), ("null.json", '{"results": null}'),
                       ("list.json", "[1, 2]")]:
        broken = os.path.join(folder, name)
        with open(broken, "w") as f:
            f.write(text)
        refused = subprocess.run([sys.executable, tool, broken], capture_output=True, text=True)
        if refused.returncode != 1 or "not a readable results file" not in refused.stderr:
            failures.append(f"{name}: exit {refused.returncode}, {refused.stderr!r}")
    shutil.rmtree(folder)

    for failure in failures:
        print("FAILED:", failure)
    if not failures:
        print(f"passed: {len(expected)} targets checked, three unreadable files refused")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
