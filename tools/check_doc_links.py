#!/usr/bin/env python3
"""Checks that the documents name only paths that exist.

usage: check_doc_links.py [ROOT]      check every *.md under ROOT (default: this repository)
       check_doc_links.py --self-test check the checker on a small tree of its own

What is checked, outside fenced code blocks:
  - markdown links and images, [text](target): relative targets, from the document's folder
    (web addresses, mail addresses and in-page anchors are left alone; #anchors are dropped);
  - paths in `code spans`: a word that starts with a top-level folder of the repository
    (results/, lab/, docs/, tools/, ...) is a path from ROOT; a word whose first folder lies next
    to the document (as h200/ next to results/README.md) is a path from the document's folder.
    Words with * or ? must match at least one file; words with a placeholder (<commit>, NAME,
    {a,b}, ..., $VAR) are skipped.
The documents are the *.md files git tracks or would track (ignored ones left out); outside a git
checkout, every *.md file but those in hidden, build and dependency folders. Skipped: markdown
under results/ and lab/results/ other than README.md (tables written by `harness show`,
`harness compare` and the probe comparison: committed bytes, not documents).

Exit 0 when every path exists, 1 (naming each missing one as FILE:LINE: PATH) when one does not.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT_FOLDERS = ("results", "lab", "docs", "tools", "plugins", "harness", "tests", "examples",
                "workloads", "cmake")
SKIPPED_FOLDERS = {".git", ".deps", "build", "node_modules", "__pycache__"}
DATA_FOLDERS = ("results", "lab/results")

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
PLACEHOLDER = re.compile(r"[<>{}$]|\.\.\.|…|\bNAME\b|\bDIR\b|\bFILE\b")


def is_document(relative):
    """Markdown under results/ and lab/results/ is generated data, except the README files."""
    if not relative.endswith(".md"):
        return False
    in_data = any(relative.startswith(d + "/") for d in DATA_FOLDERS)
    return not in_data or os.path.basename(relative) == "README.md"


def markdown_files(root):
    """The documents: in a git checkout the tracked and unignored ones, else every one in ROOT."""
    try:
        listed = subprocess.run(
            ["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "-z",
             "--", "*.md"], capture_output=True, check=True, text=True).stdout
        if subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True,
                          check=True, text=True).stdout.strip() == os.path.realpath(root):
            for relative in sorted(set(filter(None, listed.split("\0")))):
                if is_document(relative) and os.path.exists(os.path.join(root, relative)):
                    yield os.path.join(root, relative)
            return
    except (OSError, subprocess.CalledProcessError):
        pass
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders
                               if not d.startswith(".") and d not in SKIPPED_FOLDERS
                               and not d.startswith("build"))
        for name in sorted(files):
            relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if is_document(relative):
                yield os.path.join(folder, name)


def exists(path):
    if any(c in path for c in "*?["):
        return bool(glob.glob(path))
    return os.path.exists(path)


def path_words(span, root, document_folder):
    """The words of a code span that name a path, each with the folder it is relative to."""
    for word in span.split():
        word = word.strip("'\"(),;:.")
        if "/" not in word or "://" in word or PLACEHOLDER.search(word):
            continue
        # `git show COMMIT:results/x.json`, `--json=results/x.json`: the path after the colon or =
        word = re.sub(r"^[^/]*[:=]", "", word)
        first = word.split("/", 1)[0]
        if first in ROOT_FOLDERS:
            yield word, root
        elif first and first not in (".", "..") and os.path.isdir(
                os.path.join(document_folder, first)):
            yield word, document_folder


def paragraphs(path):
    """Yields (first line number, text) for each paragraph outside fenced code blocks."""
    in_fence = False
    start, lines = 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fence = line.lstrip().startswith(("```", "~~~"))
            if fence or in_fence or not line.strip():
                if lines:
                    yield start, "".join(lines)
                start, lines = 0, []
                if fence:
                    in_fence = not in_fence
                continue
            if not lines:
                start = number
            lines.append(line)
    if lines:
        yield start, "".join(lines)


def check_file(path, root):
    """Yields (line number, target) for each path the document names that does not exist."""
    document_folder = os.path.dirname(path)
    for start, text in paragraphs(path):
        def line_of(offset):
            return start + text.count("\n", 0, offset)

        # code spans may run over lines within a paragraph; links are read outside them
        prose = text
        for match in CODE_SPAN.finditer(text):
            for word, base in path_words(match.group(2), root, document_folder):
                if not exists(os.path.join(base, word)):
                    yield line_of(match.start()), word
            prose = prose[:match.start()] + " " * (match.end() - match.start()) + \
                prose[match.end():]
        for match in LINK.finditer(prose):
            target = match.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue
            target = target.split("#", 1)[0]
            if target and not exists(os.path.join(document_folder, target)):
                yield line_of(match.start()), target


def check(root):
    missing = 0
    documents = 0
    for path in markdown_files(root):
        documents += 1
        for number, target in check_file(path, root):
            print(f"{os.path.relpath(path, root)}:{number}: {target} does not exist")
            missing += 1
    print(f"{documents} documents, {missing} missing path(s)")
    return 1 if missing else 0


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(relative, text):
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)

        write("results/h200/a.json", "{}")
        write("tools/device_run.sh", "")
        write("lab/results/h200/b.json", "{}")
        write("results/h200/show.md", "[generated, not checked](nowhere.json)\n")
        write("results/README.md", "`h200/a.json`, `h200/missing-1.json`, `h200/*.json`\n")
        write("docs/x.md", "\n".join([
            "[ok](../results/h200/a.json) [web](https://example.org/x) [anchor](#x)",
            "[broken](../results/h200/b.json)",
            "`results/h200/a.json` `lab/results/h200/b.json` `tools/device_run.sh harness NAME`",
            "`results/h200/missing-2.json` `results/<host>-<time>.json` `lab/results/*.csv`",
            "```",
            "harness --json results/not-checked-in-a-fence.json",
            "```",
            "`git show 0123abc:results/h200/missing-3.json`, a span over two lines: `harness",
            "--json results/h200/missing-4.json`",
        ]) + "\n")
        found = {(os.path.relpath(p, root), n, t)
                 for p in markdown_files(root) for n, t in check_file(p, root)}
        expected = {
            ("results/README.md", 1, "h200/missing-1.json"),
            ("docs/x.md", 2, "../results/h200/b.json"),
            ("docs/x.md", 4, "results/h200/missing-2.json"),
            ("docs/x.md", 4, "lab/results/*.csv"),
            ("docs/x.md", 8, "results/h200/missing-3.json"),
            ("docs/x.md", 8, "results/h200/missing-4.json"),
        }
        if found != expected:
            print("self-test failed")
            print("  found but not expected:", sorted(found - expected))
            print("  expected but not found:", sorted(expected - found))
            return 1
    print("self-test passed")
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    if len(argv) > 1 and argv[1].startswith("-"):
        print(__doc__)
        return 2
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return check(os.path.abspath(root))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
