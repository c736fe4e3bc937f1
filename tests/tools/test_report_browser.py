#!/usr/bin/env python3
"""harness report's page as a browser sees it: headless Chromium loads a report of a small run.

usage: test_report_browser.py HARNESS WRONG_ANSWER_PLUGIN_DIR BUILD_DIR

A run of cpu_serial, openmp and fake_wrong (whose answers are wrong) on reduce and scan at tiny
sizes, reported with itself as the second file (so the comparison section is there too). Chromium
(Debian: chromium) dumps the DOM, which must hold the tables and the SVG charts, and logs the
page's console, which must stay silent (the page has no script; a blocked fetch would be logged).
A page with a deliberate console error first proves that the log is read. The screenshot is kept
as BUILD_DIR/report-screenshot.png, and the page in BUILD_DIR/report-browser/.
Exit 0 passed, 1 failed, 77 skipped (no chromium).
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

CHROMIUM_SECONDS = 120  # generous: a cold start on a busy 2-core CI machine
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


class Elements(html.parser.HTMLParser):
    """Counts start tags, and the classes of <circle> and <path> elements."""

    def __init__(self):
        super().__init__()
        self.tags = {}
        self.classes = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            if name == "class":
                key = f"{tag}.{value}"
                self.classes[key] = self.classes.get(key, 0) + 1


def chromium(browser, profile, arguments):
    """Runs headless Chromium; returns (stdout, the console lines of its log)."""
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--no-first-run", "--no-default-browser-check", "--disable-extensions",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0"] + arguments
    result = subprocess.run(command, capture_output=True, text=True, errors="replace",
                            timeout=CHROMIUM_SECONDS)
    check(result.returncode == 0, f"chromium {arguments}: exit {result.returncode}\n"
                                  f"{result.stderr[-3000:]}")
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    return result.stdout, console


def main(harness, wrong_dir, build_dir):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("SKIPPED: no chromium on PATH (Debian: apt-get install chromium); the report page "
              "was not loaded in a browser")
        return 77
    folder = tempfile.mkdtemp(prefix="plugbench_report_browser_")
    try:
        run = os.path.join(folder, "run.json")
        result = subprocess.run([harness, "--plugin-dir", wrong_dir, "-p",
                                 "cpu_serial,openmp,fake_wrong", "-w", "reduce,scan", "-s",
                                 "2^10,2^12", "-r", "3", "--warmup", "0", "--json", run, "-q"],
                                capture_output=True, text=True)
        check(result.returncode == 1, f"the run exits 1 (a wrong answer): {result.returncode} "
                                      f"{result.stderr}")
        again = os.path.join(folder, "again.json")
        shutil.copyfile(run, again)
        out = os.path.join(build_dir, "report-browser")
        result = subprocess.run([harness, "report", run, again, "--out", out],
                                capture_output=True, text=True)
        check(result.returncode == 0, f"harness report: {result.returncode} {result.stderr}")
        page = os.path.join(out, "index.html")
        if failures:
            return 1

        profile = os.path.join(folder, "profile")
        canary = os.path.join(folder, "canary.html")
        with open(canary, "w") as f:
            f.write("<!DOCTYPE html><title>canary</title>"
                    "<script>console.error('plugbench-canary')</script>")
        _, console = chromium(browser, profile, ["--dump-dom", "file://" + canary])
        check(any("plugbench-canary" in line for line in console),
              "the console log of a page with a console error is read (else this test could not "
              f"see one): {console}")

        dom, console = chromium(browser, profile, ["--dump-dom", "file://" + page])
        check(not console, f"the report logged to the console: {console}")
        elements = Elements()
        elements.feed(dom)
        tags = elements.tags
        # Two files, each: a machine table, 2 workloads x 2 sizes; the crossover is a note (no
        # GPU); the comparison: a machine table and a table per workload.
        check(tags.get("table", 0) == 2 * (1 + 4) + 1 + 2, f"tables: {tags.get('table')}")
        # Each file: rate and speedup per workload; the comparison: one chart of its cells.
        check(tags.get("svg", 0) == 2 * 2 * 2 + 1, f"SVG charts: {tags.get('svg')}")
        check(elements.classes.get("svg.chart dot-chart", 0) == 1, "the comparison's chart")
        check(tags.get("script", 0) == 0, "no script")
        check(elements.classes.get("circle.point", 0) > 0, "points drawn")
        check(elements.classes.get("path.gap", 0) > 0, "fake_wrong's cells marked as gaps")
        check(elements.classes.get("tr.alert", 0) > 0, "fake_wrong's rows marked")
        check("comparison: " in dom, "the comparison section")

        screenshot = os.path.join(build_dir, "report-screenshot.png")
        if os.path.exists(screenshot):
            os.remove(screenshot)
        _, console = chromium(browser, profile, [f"--screenshot={screenshot}",
                                                 "--window-size=1280,2000", "--hide-scrollbars",
                                                 "file://" + page])
        check(not console, f"the report logged to the console: {console}")
        head = b""
        if os.path.exists(screenshot):
            with open(screenshot, "rb") as f:
                head = f.read(8)
        check(head == b"\x89PNG\r\n\x1a\n", f"a PNG screenshot at {screenshot}")
        print(f"screenshot: {screenshot}\npage: {page}")
    except subprocess.TimeoutExpired as e:
        check(False, f"chromium did not finish within {CHROMIUM_SECONDS} s: {e.cmd}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
