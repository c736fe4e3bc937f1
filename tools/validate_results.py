#!/usr/bin/env python3
"""Validates plugbench results files against results/schema.json.

usage: validate_results.py SCHEMA FILE...          validate existing files
       validate_results.py --run HARNESS SCHEMA [LAUNCHER...]
                                                   run a small matrix with HARNESS (started by
                                                   LAUNCHER, e.g. mpiexec -np 2), validate it

Exit 0 when every file is valid, 1 when one is not, 77 (skipped) when the jsonschema module is
missing.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("skipped: the python3 jsonschema module is not installed (Debian: python3-jsonschema)")
    sys.exit(77)


def validate(schema, path):
    with open(path) as f:
        document = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    for error in errors[:10]:
        location = "/".join(str(p) for p in error.path) or "(top level)"
        print(f"{path}: {location}: {error.message}")
    return not errors


def main(argv):
    if len(argv) >= 3 and argv[0] == "--run":
        harness, schema_path, launcher = argv[1], argv[2], argv[3:]
        folder = tempfile.mkdtemp(prefix="plugbench_schema_")
        files = [os.path.join(folder, "cpu.json")]
        command = launcher + [harness, "--workload", "all", "--sizes", "0,1009", "--repetitions",
                              "2", "--json", files[0], "--quiet"]
        if launcher:  # a shared CI machine's noise must not make a rank "slow" (exit 6)
            command += ["--outlier-threshold", "9"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"harness exited {run.returncode}:\n{run.stdout}\n{run.stderr}")
            return 1
    elif len(argv) >= 2:
        schema_path, files = argv[0], argv[1:]
    else:
        print(__doc__)
        return 2
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    ok = all([validate(schema, path) for path in files])
    print(("valid: " if ok else "INVALID: ") + ", ".join(files))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
