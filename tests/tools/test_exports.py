#!/usr/bin/env python3
"""harness export with the real consumers' rules: Google Benchmark's tools/compare.py over two
exported runs, and the Bencher and github-action-benchmark shapes.

usage: test_exports.py HARNESS WRONG_ANSWER_PLUGIN_DIR

Two small runs (cpu_serial, openmp, fake_wrong, whose answer is wrong, and fake_unavailable, whose
device is off: a cell without a variant), exported with --to gbench, bmf and gab. Checks: every
verified cell has one entry per repetition and the four aggregates; by default the failed and the
unavailable cells are left out and listed on stderr (with --errors entries: error entries without
a time); no name has an empty part; no cccl claimed from a plugin that did not run; compare.py
(Debian: libbenchmark-tools, python3-scipy), given the DEFAULT exports, lists every cell and its
U test sees the repetitions; gab's range is min .. max and --out writes the named path; bmf's
bandwidth measure names its unit. Exit 0 passed, 1 failed, 77 skipped (compare.py or scipy missing).
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


def name_of(c):
    return "/".join(part or "-" for part in
                    (c["workload"], c["distribution"], str(c["n"]), c["plugin"], c["variant"]))


def main(harness, wrong_dir):
    folder = tempfile.mkdtemp(prefix="plugbench_exports_")
    unavailable_dir = os.path.join(os.path.dirname(wrong_dir), "unavailable")
    runs = []
    for index in range(2):
        path = os.path.join(folder, f"run{index}.json")
        result = run([harness, "--plugin-dir", wrong_dir, "--plugin-dir", unavailable_dir, "-p",
                      "cpu_serial,openmp,fake_wrong,fake_unavailable", "-w", "reduce", "-s",
                      "2^12", "--repetitions", str(REPETITIONS), "--json", path, "-q"])
        check(result.returncode == 1, f"run {index} exits 1 (a wrong answer): {result.returncode}")
        runs.append(path)
    document = json.load(open(runs[0]))
    cells = document["results"]
    ok_names = {name_of(c) for c in cells if c["status"] == "ok"}
    failed_names = {name_of(c) for c in cells if c["status"] != "ok"}
    check(len(ok_names) >= 2 and len(failed_names) == 2, f"cells: {ok_names} {failed_names}")
    check("reduce/mod100/4096/fake_unavailable/-" in failed_names, f"unavailable: {failed_names}")
    # A CUDA plugin built with CCCL but without a device: its cccl is not this run's.
    for plugin in document["context"]["plugins"]:
        if plugin["name"] == "fake_unavailable":
            plugin.setdefault("build_info", {})["cccl"] = "3.0.1"
    json.dump(document, open(runs[0], "w"))

    # Google Benchmark JSON.
    exported = []
    for index, path in enumerate(runs):
        # The default, for compare.py, which reads a time from every entry: not-ok cells left
        # out, each listed on stderr.
        default = os.path.join(folder, f"gbench{index}-default.json")
        result = run([harness, "export", path, "--to", "gbench", "--out", default])
        check(result.returncode == 0, f"export gbench: {result.returncode} {result.stderr}")
        for name in failed_names:
            check(f"left out: {name}" in result.stderr, result.stderr)
        names = [b["name"] for b in json.load(open(default))["benchmarks"]]
        check(not any(n == f or n.startswith(f + "_") for n in names for f in failed_names),
              f"left out by default: {names}")
        check(not any("" in n.split("/") for n in names), f"an empty name part: {names}")
        # On request, error entries.
        out = os.path.join(folder, f"gbench{index}.json")
        result = run([harness, "export", path, "--to", "gbench", "--errors", "entries", "--out",
                      out])
        check("as an error entry: reduce/mod100/4096/fake_wrong" in result.stderr, result.stderr)
        exported.append(out)
    document = json.load(open(exported[0]))
    check(document["context"]["json_schema_version"] == 1, "json_schema_version 1")
    check("cccl" not in document["context"], f"cccl claimed: {document['context'].get('cccl')}")
    check(not any("" in b["name"].split("/") for b in document["benchmarks"]),
          "an error entry's name has an empty part")
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
        check(not entries or "real_time" not in entries[0], f"{name}: an error entry has no time")

    # The same from a run itself: --format gbench puts it on stdout, the tables on stderr.
    # An unavailable cell is left out there too, so compare.py reads the output as it is.
    result = run([harness, "--plugin-dir", unavailable_dir, "-p", "cpu_serial,fake_unavailable",
                  "-w", "reduce", "-s", "2^12", "--repetitions", "3", "--format", "gbench",
                  "--no-json", "-q"])
    check(result.returncode == 0, f"--format gbench: {result.returncode} {result.stderr}")
    on_stdout = json.loads(result.stdout)
    check(all(b["name"].startswith("reduce/mod100/4096/cpu_serial/loop")
              for b in on_stdout["benchmarks"]), "--format gbench: the unavailable cell left out")
    check([b["name"] for b in on_stdout["benchmarks"] if b["run_type"] == "iteration"] ==
          ["reduce/mod100/4096/cpu_serial/loop"] * 3, "--format gbench repetitions")
    check("reduce  n = 4096" in result.stderr, "--format gbench: the tables on stderr")

    # Bencher Metric Format.
    result = run([harness, "export", runs[0], "--to", "bmf"])
    check(result.returncode == 0, f"export bmf: {result.stderr}")
    bmf = json.loads(result.stdout)
    check(set(bmf) == ok_names, f"bmf names: {set(bmf)}")
    for name, measures in bmf.items():
        # latency and throughput are Bencher's built-in measures (ns, operations/s); the one it
        # creates for the bandwidth has its unit in its name.
        check(set(measures) == {"latency", "throughput", "bandwidth (GB/s)"}, f"{name}: {measures}")
        for measure in ("latency", "throughput", "bandwidth (GB/s)"):
            m = measures.get(measure, {})
            check(m.get("lower_value", 1) <= m.get("value", 0) <= m.get("upper_value", -1),
                  f"{name} {measure}: {m}")

    # github-action-benchmark: --out writes the named file, one list (times by default).
    times_path = os.path.join(folder, "gab.json")
    result = run([harness, "export", runs[0], "--to", "gab", "--out", times_path])
    check(result.returncode == 0, f"export gab: {result.stderr}")
    check(sorted(f for f in os.listdir(folder) if f.startswith("gab")) == ["gab.json"],
          f"gab --out: {os.listdir(folder)}")
    smaller = json.load(open(times_path))
    rates_path = os.path.join(folder, "rates.json")
    result = run([harness, "export", runs[0], "--to", "gab", "--list", "rate", "--out",
                  rates_path])
    check(result.returncode == 0, f"export gab --list rate: {result.stderr}")
    bigger = json.load(open(rates_path))
    check(isinstance(smaller, list) and isinstance(bigger, list), "gab: each file a list")
    check({e["name"] for e in smaller} == ok_names, "gab time names")
    check(all(e["unit"] == "ms" and e["value"] > 0 for e in smaller), "gab times")
    kernel = {name_of(c): c["time"]["kernel"] for c in cells if c["status"] == "ok"}
    for e in smaller:
        low, _, high = e["range"].partition(" .. ")
        try:
            low, high = float(low), float(high)
        except ValueError:
            check(False, f"gab range is 'min .. max': {e}")
            continue
        check(low <= e["value"] <= high, f"gab range holds the value: {e}")
        check(abs(low - kernel[e["name"]]["min_ms"]) <= 1e-3 * low and
              abs(high - kernel[e["name"]]["max_ms"]) <= 1e-3 * high,
              f"gab range is the fastest .. slowest repetition: {e}")
    check(all(e["unit"] == "GB/s" for e in bigger) and len(bigger) == len(ok_names), "gab rates")

    # The real consumer.
    if not os.path.exists(COMPARE_PY):
        print(f"skipped compare.py: {COMPARE_PY} is missing (Debian: libbenchmark-tools)")
        return 77 if not failures else 1
    # The default exports, as a user would make them.
    defaults = [path.replace(".json", "-default.json") for path in exported]
    result = run(["/usr/bin/python3", COMPARE_PY, "--no-color", "benchmarks", defaults[0],
                  defaults[1]])
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
