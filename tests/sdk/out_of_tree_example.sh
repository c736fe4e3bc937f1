#!/usr/bin/env bash
# out_of_tree_example.sh CMAKE BUILD_DIR EXAMPLE_DIR CXX [PYTHON]: the SDK as an outsider uses it.
# Installs the built plugbench tree into a temporary prefix (the CUDA services' headers too, which
# every build installs), checks that the installed harness finds its installed plugins, builds
# examples/out_of_tree_plugin against the prefix, drops the plugin into a plugin folder, and runs
# the installed harness on it: every cell verified, and --check-plugin passing. Run by CTest
# (sdk_out_of_tree_example); needs no GPU.
set -euo pipefail

cmake_command="$1"
build_dir="$2"
example_dir="$3"
cxx="$4"
python="${5:-}"

work="$(mktemp -d "${TMPDIR:-/tmp}/plugbench_sdk_XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
unset PLUGBENCH_PLUGIN_PATH  # only the folders this script names

fail() {
  echo "out_of_tree_example: $*" >&2
  exit 1
}

step() { echo "== $*"; }

step "install the build tree into $prefix"
"$cmake_command" --install "$build_dir" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install failed"; }
for file in bin/harness lib/plugbench/plugins/libplugbench_cpu_serial.so \
  include/plugbench/plugin_api.h include/plugbench/plugin_sdk.hpp \
  include/plugbench/host_services.hpp lib/cmake/plugbench/plugbenchConfig.cmake \
  include/plugbench/cuda_services.cuh lib/cmake/plugbench/PlugbenchCudaServices.cmake \
  lib/cmake/plugbench/plugbenchConfigVersion.cmake lib/cmake/plugbench/PlugbenchPlugin.cmake \
  lib/cmake/plugbench/plugbench_plugin.map; do
  [[ -e "$prefix/$file" ]] || fail "cmake --install did not install $file"
done

step "the installed harness finds the installed plugins"
"$prefix/bin/harness" --list >"$work/list.txt" || { cat "$work/list.txt"; fail "--list failed"; }
grep -Eq "^ *cpu_serial +available" "$work/list.txt" ||
  { cat "$work/list.txt"; fail "--list does not show cpu_serial available"; }
grep -F "$prefix/lib/plugbench/plugins/libplugbench_cpu_serial.so" "$work/list.txt" |
  grep -Fq "found in $prefix/lib/plugbench/plugins (installed)" ||
  { cat "$work/list.txt"; fail "--list does not show cpu_serial found in the installed folder"; }

step "configure and build the example against the prefix"
"$cmake_command" -S "$example_dir" -B "$work/example" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring the example failed"; }
"$cmake_command" --build "$work/example" -j 2 >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building the example failed"; }
plugin="$work/example/libplugbench_example_cpu.so"
[[ -f "$plugin" ]] || fail "the example build made no $plugin"
mkdir "$work/plugins"
cp "$plugin" "$work/plugins/"

step "run the installed harness on the dropped-in plugin"
status=0
"$prefix/bin/harness" --plugin-dir "$work/plugins" --plugins example_cpu --workload reduce,scan \
  --sizes 1000,1000003 --repetitions 2 --json "$work/r.json" --quiet >"$work/run.txt" 2>&1 ||
  status=$?
cat "$work/run.txt"
[[ $status -eq 0 ]] || fail "the harness exited $status"
# reduce has two variants, scan one; each at two sizes: six cells, all verified.
if [[ -n "$python" && -x "$python" ]]; then
  "$python" - "$work/r.json" <<'PY' || fail "the results file does not show six verified cells"
import json, sys
cells = json.load(open(sys.argv[1]))["results"]
mine = [c for c in cells if c["plugin"] == "example_cpu"]
found = sorted((c["workload"], c["variant"], c["n"]) for c in mine)
expected = sorted((w, v, n) for w, v in [("reduce", "loop"), ("reduce", "unrolled4"),
                                         ("scan", "blocked")] for n in (1000, 1000003))
bad = [c for c in mine if c["status"] != "ok" or not c["verification"]["passed"]]
for c in bad:
    print("not verified:", json.dumps(c)[:400])
if found != expected:
    print("cells:", found, "expected:", expected)
sys.exit(1 if bad or found != expected else 0)
PY
else
  [[ "$(grep -o '"passed": *true' "$work/r.json" | wc -l)" -eq 6 ]] ||
    fail "the results file does not show six verified cells"
fi

step "harness --check-plugin on it"
status=0
"$prefix/bin/harness" --check-plugin "$work/plugins/libplugbench_example_cpu.so" \
  >"$work/check.txt" 2>&1 || status=$?
cat "$work/check.txt"
[[ $status -eq 0 ]] || fail "--check-plugin exited $status"
grep -q "reduce/unrolled4: ok, 27 of 27 problems verified" "$work/check.txt" ||
  fail "--check-plugin did not verify reduce/unrolled4"
grep -q "^result: all kernels passed" "$work/check.txt" || fail "--check-plugin did not pass"

step "the example's own test (plugbench::harness --check-plugin) through ctest"
ctest_command="$(dirname "$cmake_command")/ctest"
[[ -x "$ctest_command" ]] || ctest_command=ctest
"$ctest_command" --test-dir "$work/example" --output-on-failure >"$work/ctest.log" 2>&1 ||
  { cat "$work/ctest.log"; fail "the example's ctest failed"; }

echo "out_of_tree_example: ok"
