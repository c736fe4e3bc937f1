#!/usr/bin/env python3
"""Smoke test of tools/plot_results.py: draws from a small harness run and checks the images.

usage: test_plot_results.py HARNESS PLOT_TOOL FAKE_DEVICE_PLUGIN_DIR

Runs the harness twice (CPU plugins only; then with fake_device, a plugin posing as a GPU one, so
that the results hold a crossover), plots both files as PNG and SVG, and checks that the expected
files exist and are valid: the PNG signature, and SVG that parses as XML with an <svg> root. Then
a copy with null numbers is drawn too, and a file of a newer schema version is refused.
Exit 0 passed, 1 failed, 77 skipped (no matplotlib).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 77):
        print(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def main(harness, plot_tool, fake_device_dir):
    try:
        import matplotlib  # noqa: F401  (only to know whether the tool can run)
    except ImportError:
        print("skipped: matplotlib is not installed (Debian: python3-matplotlib)")
        return 77
    folder = tempfile.mkdtemp(prefix="plugbench_plot_")
    cpu = os.path.join(folder, "cpu.json")
    device = os.path.join(folder, "device.json")
    runs = [
        [harness, "-p", "cpu_serial,openmp", "-w", "reduce,scan", "-s", "2^10..2^14", "-r", "3",
         "--json", cpu, "-q"],
        [harness, "--plugin-dir", fake_device_dir, "-p", "cpu_serial,fake_device", "-w",
         "reduce", "-s", "2^10..2^14*4", "-r", "3", "--host-memory", "both", "--json", device,
         "-q"],
    ]
    for command in runs:
        if run(command).returncode != 0:
            return 1
    out = os.path.join(folder, "plots")
    result = run([sys.executable, plot_tool, cpu, device, "--out", out, "--format", "png,svg"])
    if result.returncode != 0:
        return 1
    expected = ["throughput_reduce_mod100", "throughput_scan_small", "speedup_reduce_mod100",
                "speedup_scan_small", "crossover_device_reduce_mod100"]
    failures = []
    for name in expected:
        for extension in ("png", "svg"):
            path = os.path.join(out, f"{name}.{extension}")
            if not os.path.isfile(path) or os.path.getsize(path) == 0:
                failures.append(f"{path}: missing or empty")
                continue
            with open(path, "rb") as f:
                content = f.read()
            if extension == "png" and not content.startswith(PNG_SIGNATURE):
                failures.append(f"{path}: not a PNG (starts {content[:8]!r})")
            if extension == "svg":
                try:
                    root = ElementTree.fromstring(content)
                    if not root.tag.endswith("svg"):
                        failures.append(f"{path}: the root element is {root.tag}, not svg")
                except ElementTree.ParseError as e:
                    failures.append(f"{path}: not valid XML: {e}")
    if "crossover_cpu_" in result.stdout:
        failures.append("a crossover chart was drawn for a run without a GPU plugin")
    if "cpu.json: no crossover chart" not in result.stdout:
        failures.append("no note that the CPU-only run has no crossover chart")
    # Null numbers anywhere are left out, not drawn and not fatal.
    with open(device) as f:
        document = json.load(f)
    for index, cell in enumerate(document["results"]):
        if index % 2 == 0:
            cell["gbps"] = cell["speedup"] = cell["percent_of_peak"] = None
        if index % 3 == 0:
            cell["time"]["kernel"] = None
    for entry in document["crossover"]:
        entry["series"][0]["gpu_ms"] = None
        entry["series"][-1]["cpu_ms"] = None
    document["context"]["peaks"][0]["gbps"] = None
    nulls = os.path.join(folder, "nulls.json")
    with open(nulls, "w") as f:
        json.dump(document, f)
    if run([sys.executable, plot_tool, nulls, "--out", os.path.join(folder, "nulls"),
            "--format", "svg"]).returncode != 0:
        failures.append("a file with null numbers could not be drawn")
    # Bad input: a file that is not a results file is refused, exit 2, naming it.
    bad = os.path.join(folder, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema_version": 9, "results": []}')
    refused = subprocess.run([sys.executable, plot_tool, bad, "--out", out], capture_output=True,
                             text=True)
    if refused.returncode != 2 or "written by a newer harness" not in refused.stderr:
        failures.append(f"a newer schema_version was not refused: exit {refused.returncode}, "
                        f"{refused.stderr.strip()}")
    for failure in failures:
        print(failure)
    if failures:
        print(f"FAILED ({len(failures)}); the files are in {folder}")
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    print("passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
