#!/usr/bin/env python3
"""Checks that the results a document quotes are the results in the file it names, so that a
figure in the README cannot drift from the committed run it claims to show.

usage: check_quoted_results.py HARNESS [ROOT]   check README.md and docs/*.md under ROOT
       check_quoted_results.py --self-test HARNESS

A quoted block is a fenced code block after a marker line (blank lines may come between):
    <!-- quoted from: PATH -->        PATH relative to the document's folder
    <!-- not quoted: REASON -->       a block of results that quotes no file (the reason is printed)
Every line of a quoted block must be a line of the file (trailing spaces aside), except blank
lines, "..." (lines left out) and "$ ..." (the command that made the output). A .json file is a
results file: its lines are what `HARNESS show PATH` prints (the tables, the summary), and the line
"results: PATH" that a run ends with. Any other file is compared as it is.

A plain fenced block (no language, or text or console) whose paragraph above links or names a
file under results/ must carry one of the markers: a block of results is never checked silently
or skipped silently.

Exit 0 when every quoted line is found, 1 (naming each line that is not, as DOC:LINE) otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
MARKER = re.compile(r"^\s*<!--\s*(quoted from:\s*(\S+)|not quoted:\s*(.+?))\s*-->\s*$")
RESULTS_NAMED = re.compile(r"\bresults/[\w./-]+\.(json|txt|md)\b")
PLAIN_LANGUAGES = {"", "text", "console"}


def blocks(lines):
    """(first line number, language, marker line, paragraph above, text lines) of each block."""
    found = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        opening, language = fence.group(2), fence.group(3).lower()
        back = i - 1
        while back >= 0 and not lines[back].strip():
            back -= 1
        marker = MARKER.match(lines[back]) if back >= 0 else None
        if marker:
            back -= 1
            while back >= 0 and not lines[back].strip():
                back -= 1
        above = []
        while back >= 0 and lines[back].strip() and not FENCE.match(lines[back]):
            above.insert(0, lines[back])
            back -= 1
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(opening):
            end += 1
        found.append((i + 1, language, marker, "".join(above), lines[i + 1:end]))
        i = end + 1
    return found


def source_lines(path, harness):
    """The lines a quote of `path` may hold: a results file as `harness show` prints it."""
    if path.endswith(".json"):
        shown = subprocess.run([harness, "show", path], capture_output=True, text=True)
        if shown.returncode != 0:
            raise RuntimeError(f"harness show {path} failed: {shown.stderr.strip()}")
        text = shown.stdout + shown.stderr
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    return {line.rstrip() for line in text.splitlines()}


def check_document(document, harness, out=sys.stdout):
    """Number of problems in `document`; reports each quoted block on `out`."""
    with open(document, encoding="utf-8") as f:
        lines = f.readlines()
    folder = os.path.dirname(document)
    problems = 0
    for number, language, marker, above, text in blocks(lines):
        where = f"{document}:{number}"
        if marker is None:
            if language in PLAIN_LANGUAGES and RESULTS_NAMED.search(above):
                print(f"{where}: a block under a paragraph naming a results file, without a "
                      "marker; put '<!-- quoted from: PATH -->' or '<!-- not quoted: REASON -->' "
                      "on the line before it", file=out)
                problems += 1
            continue
        if marker.group(3):
            print(f"{where}: not quoted ({marker.group(3)})", file=out)
            continue
        named = marker.group(2)
        path = os.path.normpath(os.path.join(folder, named))
        if not os.path.exists(path):
            print(f"{where}: quotes {named}, which does not exist", file=out)
            problems += 1
            continue
        try:
            known = source_lines(path, harness)
        except RuntimeError as e:
            print(f"{where}: {e}", file=out)
            problems += 1
            continue
        missing = 0
        for offset, line in enumerate(text, 1):
            line = line.rstrip()
            if not line.strip() or line.strip() == "..." or line.startswith("$ "):
                continue
            if line in known or (path.endswith(".json") and line == f"results: {named}"):
                continue
            print(f"{document}:{number + offset}: not in {named}: {line}", file=out)
            missing += 1
        problems += missing
        if missing == 0:
            print(f"{where}: every line is in {named}", file=out)
    return problems


def documents(root):
    yield os.path.join(root, "README.md")
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        for name in sorted(os.listdir(docs)):
            if name.endswith(".md"):
                yield os.path.join(docs, name)


def check(root, harness):
    problems = sum(check_document(d, harness) for d in documents(root) if os.path.exists(d))
    print(f"{problems} problem(s)")
    return 1 if problems else 0


def self_test(harness):
    """The checker finds a changed line, an unmarked block, a missing file; passes a true quote."""
    run = "plugin  variant  verified\ncpu_serial  loop  yes (exact)\n\n3 cells: 3 ok\n"
    cases = {
        "true quote": ("Output of [it](results/run.txt):\n\n<!-- quoted from: results/run.txt -->"
                       "\n```\n$ harness\ncpu_serial  loop  yes (exact)   \n...\n3 cells: 3 ok\n"
                       "```\n", 0),
        "changed line": ("<!-- quoted from: results/run.txt -->\n```\ncpu_serial  loop  yes (1e-2)"
                         "\n3 cells: 3 ok\n```\n", 1),
        "unmarked": ("From [it](results/run.txt):\n\n```\ncpu_serial  loop  yes (exact)\n```\n", 1),
        "not quoted": ("From `results/run.txt`, redrawn:\n<!-- not quoted: a sketch -->\n```\nx\n"
                       "```\n", 0),
        "missing file": ("<!-- quoted from: results/gone.txt -->\n```\nx\n```\n", 1),
        "code is not results": ("Built from `results/run.txt`:\n```sh\nls\n```\n", 0),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "results"))
        with open(os.path.join(root, "results", "run.txt"), "w", encoding="utf-8") as f:
            f.write(run)
        for label, (text, expected) in cases.items():
            document = os.path.join(root, label.replace(" ", "_") + ".md")
            with open(document, "w", encoding="utf-8") as f:
                f.write(text)
            with open(os.devnull, "w", encoding="utf-8") as quiet:
                found = check_document(document, harness, quiet)
            if found != expected:
                print(f"self-test '{label}': {found} problems, expected {expected}")
                failures += 1
    print("self-test: " + ("passed" if failures == 0 else f"{failures} cases failed"))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--self-test":
        return self_test(argv[2])
    if len(argv) not in (2, 3) or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[2] if len(argv) == 3 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return check(os.path.abspath(root), argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
