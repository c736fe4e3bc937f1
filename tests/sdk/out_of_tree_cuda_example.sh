#!/usr/bin/env bash
# out_of_tree_cuda_example.sh build|check WORK CMAKE BUILD_DIR EXAMPLE_DIR CXX NVCC ARCHITECTURES:
# the SDK's CUDA services as an outsider uses them (examples/out_of_tree_cuda_plugin). ARCHITECTURES
# as the plugin's build facts write them: "90", or "80,90".
#   build  installs the built plugbench tree into WORK/prefix, configures and builds the example
#          against it with nvcc, and reads the plugin's description with the installed harness
#          (name, kernels, build facts): no GPU needed, so a compile error always fails.
#   check  runs the installed harness's --check-plugin on the plugin WORK holds, and a small matrix
#          next to the shipped CUDA plugins: every kernel verified. Without a usable GPU the plugin
#          is unavailable: the reason is printed and the script exits 77 (CTest: skipped).
# Run by CTest (sdk_out_of_tree_cuda_example_build, sdk_out_of_tree_cuda_example_check).
set -euo pipefail

mode="$1"
work="$2"
cmake_command="$3"
build_dir="$4"
example_dir="$5"
cxx="$6"
nvcc="$7"
architectures="$8"

prefix="$work/prefix"
example_build="$work/example"
plugin="$example_build/libplugbench_example_cuda.so"
unset PLUGBENCH_PLUGIN_PATH  # only the folders this script names

fail() {
  echo "out_of_tree_cuda_example: $*" >&2
  exit 1
}

step() { echo "== $*"; }

build() {
  rm -rf "$work"
  mkdir -p "$work"
  step "install the build tree into $prefix"
  "$cmake_command" --install "$build_dir" --prefix "$prefix" >"$work/install.log" ||
    { cat "$work/install.log"; fail "cmake --install failed"; }
  for file in include/plugbench/cuda_services.cuh include/plugbench/cuda/check.cuh \
    include/plugbench/cuda/launch.cuh include/plugbench/cuda/mandelbrot.cuh \
    lib/cmake/plugbench/PlugbenchCudaServices.cmake; do
    [[ -e "$prefix/$file" ]] || fail "cmake --install did not install $file"
  done

  step "configure and build the example against the prefix with $nvcc"
  "$cmake_command" -S "$example_dir" -B "$example_build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES="${architectures//,/;}" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configuring the example failed"; }
  "$cmake_command" --build "$example_build" -j 2 >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "building the example failed"; }
  [[ -f "$plugin" ]] || fail "the example build made no $plugin"
  # The plugin must not need the CUDA runtime as a shared library: the SDK links it statically.
  if command -v ldd >/dev/null && ldd "$plugin" | grep -q "libcudart"; then
    ldd "$plugin"
    fail "the plugin links the shared CUDA runtime; the SDK's default is the static one"
  fi

  step "the installed harness reads the plugin's description"
  local status=0
  # A workload the plugin has no kernel for: nothing runs, GPU or not, and the description is
  # printed first (then exit 0 without a GPU, 2 "no kernel matches" with one).
  "$prefix/bin/harness" --check-plugin "$plugin" --workload mandelbrot >"$work/describe.txt" 2>&1 ||
    status=$?
  cat "$work/describe.txt"
  [[ $status -eq 0 || $status -eq 2 ]] || fail "--check-plugin --workload mandelbrot exited $status"
  local expected
  for expected in "name:          example_cuda" "memory space:  device" "  reduce/warp_atomics" \
    "  scan/cub" "  cuda_architectures: $architectures" "  cuda_runtime_library: Static"; do
    grep -qxF -- "$expected" "$work/describe.txt" ||
      fail "the description lacks the line '$expected' (exit $status)"
  done
  echo "out_of_tree_cuda_example: built and described"
}

check() {
  [[ -f "$plugin" ]] ||
    fail "no $plugin: the build test (sdk_out_of_tree_cuda_example_build) did not run or failed"
  step "harness --check-plugin on it"
  local status=0
  "$prefix/bin/harness" --check-plugin "$plugin" >"$work/check.txt" 2>&1 || status=$?
  cat "$work/check.txt"
  [[ $status -eq 0 ]] || fail "--check-plugin exited $status"
  if grep -q "^result: loaded and described; its kernels were not run" "$work/check.txt"; then
    echo "SKIP: example_cuda is unavailable on this machine, so no kernel ran:" \
      "$(grep -m1 '^probe:' "$work/check.txt" | sed 's/^probe: *unavailable: //')"
    exit 77
  fi
  grep -q "^  reduce/warp_atomics: ok, 27 of 27 problems verified" "$work/check.txt" ||
    fail "--check-plugin did not verify reduce/warp_atomics on its 27 problems"
  grep -q "^  scan/cub: ok, " "$work/check.txt" || fail "--check-plugin did not verify scan/cub"
  grep -q "^result: all kernels passed" "$work/check.txt" || fail "--check-plugin did not pass"

  step "run it next to the shipped CUDA plugins"
  mkdir -p "$work/plugins"
  cp "$plugin" "$work/plugins/"
  status=0
  "$prefix/bin/harness" --plugin-dir "$work/plugins" --plugins cuda_naive,example_cuda \
    --workload reduce,scan --sizes 1000003,2^24 --repetitions 3 --json "$work/r.json" \
    --format csv >"$work/run.csv" 2>&1 || status=$?
  cat "$work/run.csv"
  [[ $status -eq 0 ]] || fail "the harness exited $status"
  # Two kernels at two sizes, each verified (columns: ..., plugin, variant, ..., verified).
  [[ "$(awk -F, '$5 == "example_cuda" && $NF ~ /^yes/' "$work/run.csv" | wc -l)" -eq 4 ]] ||
    fail "the results do not show example_cuda's four cells verified"
  echo "out_of_tree_cuda_example: checked and run on the GPU"
}

case "$mode" in
  build) build ;;
  check) check ;;
  *) fail "unknown mode '$mode' (build or check)" ;;
esac
