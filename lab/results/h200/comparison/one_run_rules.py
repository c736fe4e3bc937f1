#!/usr/bin/env python3
"""one_run_rules.py HARNESS: two rules for one run a side, tried on the committed proof runs.

For each pair of d01092c/ and 0b3b1a7/ (runs.tar.gz unpacked beside this script), the cells
`harness compare --format csv` calls faster or slower, then what is left of them under
  null: a second test against the spread of all cells of the memory space between the two runs
        (1.4826 x MAD of their log new/base), Holm over the cells: both tests must reject;
  duet: the cell must differ beyond --threshold from the median new/base of the other cells of
        its problem on the same side (host or device), which ran in the same rounds.
"""
import csv, io, math, os, statistics as st, subprocess, sys
from math import erfc, sqrt

HOST = {"cpu_serial", "openmp", "fake_slowdown"}
here = os.path.dirname(os.path.abspath(__file__))


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def space(row):
    return "host" if row["plugin"] in HOST else "device"


def called(rows):
    return [r for r in rows if r["verdict"] in ("slower", "faster")]


def under_null(rows):
    logs = {}
    for r in rows:
        logs.setdefault(space(r), []).append(math.log(float(r["ratio"])))
    sigma = {s: 1.4826 * st.median([abs(x - st.median(v)) for x in v]) for s, v in logs.items()}
    ps = [erfc(abs(math.log(float(r["ratio"]))) / max(sigma[space(r)], 1e-9) / sqrt(2))
          for r in rows]
    return [r for r, p in zip(rows, holm(ps)) if r["verdict"] in ("slower", "faster") and p < 0.05]


def under_duet(rows, threshold=0.05):
    problems = {}
    for r in rows:
        problems.setdefault((r["workload"], r["distribution"], r["n"], space(r)), []).append(r)
    kept = []
    for cells in problems.values():
        for r in called(cells):
            others = [math.log(float(o["ratio"])) for o in cells if o is not r]
            change = math.log(float(r["ratio"]))
            if len(others) < 2:
                kept.append(r)
                continue
            beyond = change - st.median(others)
            if abs(math.exp(beyond) - 1) > threshold and (beyond > 0) == (change > 0):
                kept.append(r)
    return kept


def main(harness):
    for batch in ("d01092c", "0b3b1a7"):
        for kind in ("aa", "ab"):
            for pair in (1, 2, 3):
                files = [os.path.join(here, batch, kind, f"pair{pair}-{s}.json") for s in "ab"]
                out = subprocess.run([harness, "compare", *files, "--format", "csv"],
                                     capture_output=True, text=True).stdout
                rows = [r for r in csv.DictReader(io.StringIO(out)) if r["ratio"]]
                fake = lambda rs: sum(r["plugin"] == "fake_slowdown" for r in rs)
                line = f"{batch} {kind} pair {pair}:"
                for name, kept in (("now", called(rows)), ("null", under_null(rows)),
                                   ("duet", under_duet(rows))):
                    line += f"  {name} {len(kept)}" + (f" ({fake(kept)} fake)" if kind == "ab" else "")
                print(line)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-ci/bin/harness")
