#!/usr/bin/env python3
"""Test of tools/host_targets_table.py on a results file made here: a target met, one missed, one
whose cells are missing, the sort's spread over distributions, a faster cell that failed
verification left out, and an unreadable file refused.

usage: test_host_targets_table.py TOOL
Exit 0 passed, 1 failed."""
import json
import os
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
        cell("openmp", "sort", "uniform", "2^28", 200.0, variant="msd_buckets"),
        cell("openmp", "sort", "few", "2^28", 230.0),
        cell("openmp", "sort", "sorted", "2^28", 250.0),
        cell("openmp", "sort", "sorted", "2^28", 1.0, passed=False, variant="wrong"),
    ]
    folder = tempfile.mkdtemp(prefix="plugbench_targets_")
    path = os.path.join(folder, "r.json")
    with open(path, "w") as f:
        json.dump({"schema_version": 2, "results": cells}, f)
    result = subprocess.run([sys.executable, tool, path], capture_output=True, text=True)
    rows = {tuple(part.strip() for part in line.split("|")[1:4]): line
            for line in result.stdout.splitlines() if line.startswith("| ")}

    def verdict(target, size, distribution):
        for (t, s, d), line in rows.items():
            if t.startswith(target) and s == size and d == distribution:
                return line.rstrip(" |").rsplit("|", 1)[1].strip(), line
        return None, None

    failures = []
    expected = [
        ("reduce ≥ 85", "2^26", "mod100", "yes", "`unrolled` | 3 ms, 90.0 % | 45 ms"),
        ("reduce ≥ 85", "2^28", "mod100", "no", "14 ms, 80.0 %"),
        ("dot ≥ 85", "2^28", "uniform", "missing", "missing"),
        ("sort ≤ 224 ms", "2^28", "uniform", "yes", "`msd_buckets`"),
        ("sort ≤ 1.2× uniform (1.15× uniform)", "2^28", "few", "yes", "230 ms"),
        ("sort ≤ 1.2× uniform (1.25× uniform)", "2^28", "sorted", "no", "250 ms"),
        ("sort ≤ 1.2× uniform", "2^28", "equal", "missing", "missing"),
    ]
    for target, size, distribution, want, text in expected:
        got, line = verdict(target, size, distribution)
        if got != want or text not in (line or ""):
            failures.append(f"{target} {size} {distribution}: want {want!r} with {text!r}, "
                            f"got {line!r}")
    if result.returncode != 0:
        failures.append(f"exit {result.returncode}: {result.stderr}")

    broken = os.path.join(folder, "broken.json")
    with open(broken, "w") as f:
        f.write("{not json")
    refused = subprocess.run([sys.executable, tool, broken], capture_output=True, text=True)
    if refused.returncode == 0 or "not a readable results file" not in refused.stderr:
        failures.append(f"an unreadable file: exit {refused.returncode}, {refused.stderr!r}")

    for failure in failures:
        print("FAILED:", failure)
    if not failures:
        print(f"passed: {len(expected)} targets checked, the unreadable file refused")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
