#!/usr/bin/env python3
"""Compiles the C++ snippets of a document against the plugin SDK, so that the page a plugin author
copies from cannot drift from the headers.

usage: check_doc_snippets.py [--cuda NVCC] DOC.md COMPILER [COMPILER FLAGS...]
       check_doc_snippets.py [--cuda NVCC] --self-test COMPILER [COMPILER FLAGS...]

Every fenced block whose language is cpp, c++ or cuda must follow a marker line (blank lines may
come between):
    <!-- snippet: compiles -->                 compiled as one translation unit
    <!-- snippet: not compiled: REASON -->     left out, and the reason is printed
A compiled cpp block is prefixed with the SDK's headers (PRELUDE) and built with
COMPILER -x c++ -std=c++20 -Wall -Wextra -Werror -ffp-contract=off -c FLAGS; a compiled cuda block
with the SDK's CUDA services too (CUDA_PRELUDE), by NVCC -x cu -std=c++20 -c FLAGS, host warnings
as errors. Without --cuda (a build without CUDA) a compiled cuda block is reported as not compiled
here, with that reason; the build with CUDA compiles it. An unmarked block, or a document with
nothing compiled, is an error: no block is skipped silently.

Exit 0 when every marked block compiles, 1 (naming each failure as DOC:LINE) otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

PRELUDE = """#include <plugbench/plugin_sdk.hpp>
#include <plugbench/host_services.hpp>

#include <cstdint>
#include <string>
"""
CUDA_PRELUDE = PRELUDE + """#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
"""
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(compiles|not compiled:\s*(.+?))\s*-->\s*$")
CODE_LANGUAGES = {"cpp", "c++", "cuda"}


def code_blocks(lines):
    """(first line number, language, marker or None, reason, text) of each fenced code block."""
    blocks = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        opening, language = fence.group(2), fence.group(3).lower()
        marker, reason = None, ""
        back = i - 1
        while back >= 0 and not lines[back].strip():
            back -= 1
        if back >= 0:
            found = MARKER.match(lines[back])
            if found:
                marker = "compiles" if found.group(1) == "compiles" else "not compiled"
                reason = found.group(2) or ""
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(opening):
            end += 1
        blocks.append((i + 1, language, marker, reason, "".join(lines[i + 1:end])))
        i = end + 1
    return blocks


def compile_snippet(text, compiler, flags, label, cuda=False):
    """None when the snippet compiles, else the compiler's message. `cuda`: `compiler` is nvcc."""
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "snippet.cu" if cuda else "snippet.cpp")
        with open(source, "w", encoding="utf-8") as out:
            out.write((CUDA_PRELUDE if cuda else PRELUDE) + f'#line 1 "{label}"\n' + text)
        if cuda:
            command = [compiler, "-x", "cu", "-std=c++20", "-Xcompiler=-Wall,-Wextra,-Werror"]
        else:
            command = [compiler, "-x", "c++", "-std=c++20", "-Wall", "-Wextra", "-Werror",
                       "-ffp-contract=off"]
        command += ["-c", source, "-o", os.path.join(folder, "snippet.o")]
        result = subprocess.run(command + flags, capture_output=True, text=True)
        return None if result.returncode == 0 else (result.stderr or result.stdout).strip()


def check(document, compiler, flags, out=sys.stdout, cuda_compiler=None):
    """Number of problems found in `document`; reports each block's fate on `out`."""
    with open(document, encoding="utf-8") as source:
        lines = source.readlines()
    name = document
    problems = 0
    compiled = 0
    for line, language, marker, reason, text in code_blocks(lines):
        if language not in CODE_LANGUAGES:
            continue
        where = f"{name}:{line}"
        if marker is None:
            print(f"{where}: a {language} block without a marker; put '<!-- snippet: compiles -->' "
                  "or '<!-- snippet: not compiled: REASON -->' on the line before it", file=out)
            problems += 1
        elif marker == "not compiled":
            print(f"{where}: not compiled ({reason})", file=out)
        elif language == "cuda" and cuda_compiler is None:
            print(f"{where}: not compiled here (a cuda block, and no --cuda compiler: a build "
                  "without CUDA)", file=out)
        else:
            cuda = language == "cuda"
            error = compile_snippet(text, cuda_compiler if cuda else compiler, flags, where, cuda)
            compiled += 1
            if error is None:
                print(f"{where}: compiles", file=out)
            else:
                print(f"{where}: does not compile:\n{error}", file=out)
                problems += 1
    if compiled == 0:
        print(f"{name}: no snippet marked '<!-- snippet: compiles -->'", file=out)
        problems += 1
    return problems


def self_test(compiler, flags, cuda_compiler=None):
    """The checker finds an unmarked block, a snippet that does not compile, and passes good ones."""
    good_cuda = ("<!-- snippet: compiles -->\n```cpp\nint f() { return 1; }\n```\n"
                 "<!-- snippet: compiles -->\n```cuda\n__global__ void k(int* p) { *p = 1; }\n"
                 "void g(int* p) { k<<<1, 1>>>(p); PB_CUDA_CHECK_LAUNCH(); }\n```\n")
    cases = {
        "good": ("<!-- snippet: compiles -->\n```cpp\nint f() { return 1; }\n```\n"
                 "<!-- snippet: not compiled: a fragment -->\n\n```cpp\n...\n```\n", 0),
        "unmarked": ("<!-- snippet: compiles -->\n```cpp\nint f();\n```\n```cpp\nint g();\n```\n",
                     1),
        "broken": ("<!-- snippet: compiles -->\n```cpp\nint f() { return nope; }\n```\n", 1),
        "nothing compiled": ("```sh\necho hi\n```\n", 1),
        # Without --cuda, reported and left out; with it, compiled by nvcc.
        "cuda": (good_cuda, 0),
    }
    if cuda_compiler is not None:
        cases["broken cuda"] = ("<!-- snippet: compiles -->\n```cuda\n__global__ void k() { nope; }"
                                "\n```\n", 1)
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for label, (text, expected) in cases.items():
            document = os.path.join(folder, label.replace(" ", "_") + ".md")
            with open(document, "w", encoding="utf-8") as out:
                out.write(text)
            with open(os.devnull, "w", encoding="utf-8") as quiet:
                found = check(document, compiler, flags, quiet, cuda_compiler)
            if found != expected:
                print(f"self-test '{label}': {found} problems, expected {expected}")
                failures += 1
    print("self-test: " + ("passed" if failures == 0 else f"{failures} cases failed"))
    return failures


def main(argv):
    cuda_compiler = None
    if len(argv) > 2 and argv[1] == "--cuda":
        cuda_compiler = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "--self-test":
        return 1 if self_test(argv[2], argv[3:], cuda_compiler) else 0
    return 1 if check(argv[1], argv[2], argv[3:], cuda_compiler=cuda_compiler) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
