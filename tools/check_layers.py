#!/usr/bin/env python3
"""check_layers.py: harness/src as a ladder (README.md#layout): a folder includes only its own
files and the folders below it, never one above, and no two folders include each other.

  check_layers.py REPO          exit 0 when every include runs down the ladder (or is allowed
                                below, for now), 1 with each offending line when not
  check_layers.py --graph REPO  the folder include graph: lines per folder pair
  check_layers.py --self-test   check the checker on a small tree of its own

Folders not yet in the ladder, and upward edges not yet moved, are listed in ALLOWED_UPWARD with the
count of lines each may have: the list shrinks as the folders move and the checker fails when an
edge has more lines than allowed, so no new upward include gets in on the way.
"""
import os
import re
import sys
import tempfile

# Bottom to top: a folder may include the folders before it in this list.
LADDER = [
    "base",
    "render",
    "load",
    "measure",
    "results",
    "plan",
    "ranks",
    "cells",
    "distribute",
    "history",
    "analyze",
    "run",
    "cli",
]

# Upward include edges not yet moved, "from -> to": the most include lines each may have.
ALLOWED_UPWARD = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')


def include_edges(src):
    """{(from, to): [(file, line number, text)]} for every include of another folder's header."""
    edges = {}
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        for root, _, files in os.walk(path):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                file = os.path.join(root, name)
                with open(file, encoding="utf-8", errors="replace") as f:
                    for number, text in enumerate(f, 1):
                        match = INCLUDE.match(text)
                        if not match or match.group(1) == folder:
                            continue
                        if not os.path.isdir(os.path.join(src, match.group(1))):
                            continue  # not a folder of harness/src (a system path)
                        edges.setdefault((folder, match.group(1)), []).append(
                            (os.path.relpath(file, src), number, text.strip()))
    return edges


SOURCES = (".hpp", ".cpp", ".h", ".cu", ".cuh")


def has_sources(path):
    return os.path.isdir(path) and any(
        name.endswith(SOURCES) for _, _, files in os.walk(path) for name in files)


def problems(src, allowed):
    edges = include_edges(src)
    found = []
    # A folder with no source file (left empty by a move) is not part of the harness.
    folders = sorted({f for pair in edges for f in pair} |
                     {d for d in os.listdir(src) if has_sources(os.path.join(src, d))})
    for folder in folders:
        if folder not in LADDER:
            found.append(f"{folder}/: not in the ladder (tools/check_layers.py LADDER): "
                         "say where it stands")
    for (a, b), lines in sorted(edges.items()):
        if a not in LADDER or b not in LADDER:
            continue
        if LADDER.index(b) < LADDER.index(a):
            continue
        key = f"{a} -> {b}"
        limit = allowed.get(key, 0)
        if len(lines) <= limit:
            continue
        two_way = " (the two include each other)" if (b, a) in edges else ""
        found.append(f"{key}: {len(lines)} include lines up the ladder{two_way}, "
                     f"{limit} allowed:")
        found.extend(f"  harness/src/{file}:{number}: {text}" for file, number, text in lines)
    for key, limit in sorted(allowed.items()):
        a, b = key.split(" -> ")
        have = len(edges.get((a, b), []))
        if have < limit:
            found.append(f"{key}: {have} include lines where {limit} are allowed: lower "
                         f"ALLOWED_UPWARD to {have} (or drop it at 0) so that none comes back")
    return found


def graph(src):
    edges = include_edges(src)
    for (a, b), lines in sorted(edges.items(),
                                key=lambda e: (LADDER.index(e[0][0]) if e[0][0] in LADDER else 99,
                                               e[0][1])):
        up = a in LADDER and b in LADDER and LADDER.index(b) > LADDER.index(a)
        print(f"{a:>10} -> {b:<10} {len(lines):3d}{'  UP' if up else ''}")


def self_test():
    with tempfile.TemporaryDirectory() as tree:
        def write(path, text):
            full = os.path.join(tree, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        write("base/a.hpp", "#include <string>\n")
        write("measure/m.cpp", '#include "base/a.hpp"\n#include "measure/m.hpp"\n')
        ok = not problems(tree, {})
        write("base/b.cpp", '#include "measure/m.hpp"\n')  # up the ladder
        up = problems(tree, {})
        allowed = not problems(tree, {"base -> measure": 1})
        stale = problems(tree, {"base -> measure": 2})
        os.makedirs(os.path.join(tree, "emptied"))
        emptied = not problems(tree, {"base -> measure": 1})
        write("stray/s.cpp", "\n")
        stray = problems(tree, {"base -> measure": 1})
    results = {
        "a tree whose includes run down passes": ok,
        "an include up the ladder is named with its file and line":
            any("base/b.cpp:1" in line for line in up),
        "an allowed upward edge passes": allowed,
        "an allowance larger than the edge must be lowered": any("lower" in line for line in stale),
        "a folder outside the ladder is named": any("stray/" in line for line in stray),
        "a folder a move left empty is not": emptied,
    }
    for name, passed in results.items():
        print(("ok    " if passed else "FAIL  ") + name)
    return 0 if all(results.values()) else 1


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) == 3 and argv[1] == "--graph":
        graph(os.path.join(argv[2], "harness", "src"))
        return 0
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src = os.path.join(argv[1], "harness", "src")
    found = problems(src, ALLOWED_UPWARD)
    for line in found:
        print(line)
    if found:
        print("harness/src is not a ladder here: move the included thing down, or the including "
              "file up (README.md#layout)")
        return 1
    allowed = sum(ALLOWED_UPWARD.values())
    if allowed:
        print(f"no include of harness/src runs up the ladder beyond the {allowed} lines still "
              f"allowed over {len(ALLOWED_UPWARD)} folder pairs (ALLOWED_UPWARD)")
    else:
        print("every include of harness/src runs down the ladder")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
