#!/usr/bin/env python3
"""harness export with the real consumers' rules: Google Benchmark's tools/compare.py over two
exported runs, and the Bencher and github-action-benchmark shapes.

usage: test_exports.py HARNESS WRONG_ANSWER_PLUGIN_DIR

Two small runs (cpu_serial, openmp, and fake_wrong, whose answer is wrong), exported with --to
gbench, bmf and gab. Checks: every verified cell has one entry per repetition and the four
aggregates; the failed cell is an error entry without a time (gbench) or absent (bmf, gab);
compare.py (Debian: libbenchmark-tools, python3-scipy), given the exports with --errors omit,
lists every cell and its U test sees the repetitions. Exit 0 passed, 1 failed, 77 skipped (compare.py or scipy missing).
"""
import json
import os
import subprocess
import sys
import tempfile

COMPARE_PY = "/usr/share/benchmark/compare.py"
REPETITIONS = 9
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    return result


def main(harness, wrong_dir):
    folder = tempfile.mkdtemp(prefix="plugbench_exports_")
    runs = []
    for index in range(2):
        path = os.path.join(folder, f"run{index}.json")
        result = run([harness, "--plugin-dir", wrong_dir, "-p", "cpu_serial,openmp,fake_wrong",
                      "-w", "reduce", "-s", "2^12", "--repetitions", str(REPETITIONS), "--json",
                      path, "-q"])
        check(result.returncode == 1, f"run {index} exits 1 (a wrong answer): {result.returncode}")
        runs.append(path)
    cells = json.load(open(runs[0]))["results"]
    ok_names = {f"{c['workload']}/{c['distribution']}/{c['n']}/{c['plugin']}/{c['variant']}"
                for c in cells if c["status"] == "ok"}
    failed_names = {f"{c['workload']}/{c['distribution']}/{c['n']}/{c['plugin']}/{c['variant']}"
                    for c in cells if c["status"] != "ok"}
    check(len(ok_names) >= 2 and len(failed_names) == 1, f"cells: {ok_names} {failed_names}")

    # Google Benchmark JSON.
    exported = []
    for index, path in enumerate(runs):
        out = os.path.join(folder, f"gbench{index}.json")
        result = run([harness, "export", path, "--to", "gbench", "--out", out])
        check(result.returncode == 0, f"export gbench: {result.returncode} {result.stderr}")
        check("as an error entry: reduce/mod100/4096/fake_wrong" in result.stderr, result.stderr)
        # For compare.py, which reads a time from every entry: the failed cell left out.
        for_compare = os.path.join(folder, f"gbench{index}-omit.json")
        result = run([harness, "export", path, "--to", "gbench", "--errors", "omit", "--out",
                      for_compare])
        check("left out: reduce/mod100/4096/fake_wrong" in result.stderr, result.stderr)
        check(not any(b["name"].startswith("reduce/mod100/4096/fake_wrong")
                      for b in json.load(open(for_compare))["benchmarks"]), "omitted")
        exported.append(out)
    document = json.load(open(exported[0]))
    check(document["context"]["json_schema_version"] == 1, "json_schema_version 1")
    check(isinstance(document["context"]["caches"], list), "caches is a list")
    benchmarks = document["benchmarks"]
    for name in ok_names:
        iterations = [b for b in benchmarks if b["name"] == name and b["run_type"] == "iteration"]
        check(len(iterations) == REPETITIONS, f"{name}: {len(iterations)} repetitions")
        check(all(b["time_unit"] == "us" and b["real_time"] > 0 for b in iterations), name)
        aggregates = {b["aggregate_name"] for b in benchmarks
                      if b["run_type"] == "aggregate" and b["run_name"] == name}
        check(aggregates == {"mean", "median", "stddev", "cv"}, f"{name}: {aggregates}")
    for name in failed_names:
        entries = [b for b in benchmarks if b["name"] == name]
        check(len(entries) == 1 and entries[0].get("error_occurred") is True, f"{name}: {entries}")
        check("real_time" not in entries[0], f"{name}: an error entry has no time")

    # The same from a run itself: --format gbench puts it on stdout, the tables on stderr.
    result = run([harness, "-p", "cpu_serial", "-w", "reduce", "-s", "2^12", "--repetitions", "3",
                  "--format", "gbench", "--no-json", "-q"])
    check(result.returncode == 0, f"--format gbench: {result.returncode} {result.stderr}")
    on_stdout = json.loads(result.stdout)
    check([b["name"] for b in on_stdout["benchmarks"] if b["run_type"] == "iteration"] ==
          ["reduce/mod100/4096/cpu_serial/loop"] * 3, "--format gbench repetitions")
    check("reduce  n = 4096" in result.stderr, "--format gbench: the tables on stderr")

    # Bencher Metric Format.
    result = run([harness, "export", runs[0], "--to", "bmf"])
    check(result.returncode == 0, f"export bmf: {result.stderr}")
    bmf = json.loads(result.stdout)
    check(set(bmf) == ok_names, f"bmf names: {set(bmf)}")
    for name, measures in bmf.items():
        for measure in ("latency", "throughput", "bandwidth"):
            m = measures.get(measure, {})
            check(m.get("lower_value", 1) <= m.get("value", 0) <= m.get("upper_value", -1),
                  f"{name} {measure}: {m}")

    # github-action-benchmark: two files, each a list.
    prefix = os.path.join(folder, "gab")
    result = run([harness, "export", runs[0], "--to", "gab", "--out", prefix])
    check(result.returncode == 0, f"export gab: {result.stderr}")
    smaller = json.load(open(prefix + "-time.json"))
    bigger = json.load(open(prefix + "-rate.json"))
    check({e["name"] for e in smaller} == ok_names, "gab time names")
    check(all(e["unit"] == "ms" and e["value"] > 0 for e in smaller), "gab times")
    check(all(e["unit"] == "GB/s" for e in bigger) and len(bigger) == len(ok_names), "gab rates")

    # The real consumer.
    if not os.path.exists(COMPARE_PY):
        print(f"skipped compare.py: {COMPARE_PY} is missing (Debian: libbenchmark-tools)")
        return 77 if not failures else 1
    omitted = [path.replace(".json", "-omit.json") for path in exported]
    result = run(["/usr/bin/python3", COMPARE_PY, "--no-color", "benchmarks", omitted[0],
                  omitted[1]])
    if "No module named 'scipy'" in result.stderr:
        print("skipped compare.py: scipy is missing (Debian: python3-scipy)")
        return 77 if not failures else 1
    check(result.returncode == 0, f"compare.py exited {result.returncode}: {result.stderr}")
    for name in ok_names:
        check(f"{name}_pvalue" in result.stdout, f"compare.py lists {name} with a U test")
    check(f"U Test, Repetitions: {REPETITIONS} vs {REPETITIONS}" in result.stdout,
          "compare.py's U test sees the repetitions")
    print(result.stdout)
    print("passed" if not failures else f"{len(failures)} checks failed")
    return 0 if not failures else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
