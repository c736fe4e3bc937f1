#!/usr/bin/env bash
# device_run.sh: one batch on the GPU machine: build (all cores), the test suite, then harness runs.
# Logs and results land in $OUT (the device tool brings them back).
#   tools/device_run.sh test                       build + ctest
#   tools/device_run.sh sanitize [options...]      build + compute-sanitizer over the GPU plugins
#   tools/device_run.sh harness NAME [options...]  build + one harness run saved as NAME.json/.txt
#                                                  (PLUGBENCH_HARNESS_TIMEOUT=S stops it after S s)
#   tools/device_run.sh mpi NAME K [options...]    build + mpirun -np K harness, saved as NAME.json/.txt
#   tools/device_run.sh ncu NAME [options...]      build + Nsight Compute over one harness run
#   tools/device_run.sh probe [log2 n]             build + tools/probes/tile_copy_probe.cu (bulk
#                                                  tile movement without look-back), probe.txt
#   tools/device_run.sh measure-probes NAME [opts] the standalone measurement probes
#                                                  (tools/probes/README.md): NAME-host.csv and
#                                                  NAME-gpu.csv, options given to both
#   tools/device_run.sh peak-probe NAME [opts]     tools/probes/host_peak_probe.cpp: NAME.csv
#   tools/device_run.sh first-cell [opts]          seconds to the first table of a small openmp run
# PLUGBENCH_BUILD_TARGETS="harness plugbench_plugin_cub ..." builds only those targets.
# PLUGBENCH_TUNINGS=ON builds cuda_optimized's tunings too (plugins/cuda_optimized/README.md).
# PLUGBENCH_CUDA=OFF builds the host side only (no CUDA configure): host-only batches start sooner.
# PLUGBENCH_SOURCE_COMMIT=<hash here, plus "-dirty" for local changes>: the commit the results
# record (the GPU machine's copy of the tree cannot tell: its .git is stale).
# Stages can be chained with "--": tools/device_run.sh test -- harness quick -w reduce
# Before the first call: tools/fetch_boost_program_options.sh and tools/fetch_sqlite.sh here, and
# carry [".deps"].
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/plugbench_device_out}"
mkdir -p "$OUT"
jobs="$(nproc)"
build_dir=build-device

build() {
  [[ -x "$build_dir/bin/harness" && -n "${PLUGBENCH_SKIP_BUILD:-}" ]] && return 0
  nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
  # The GPU machine's image lacks Boost.Program_options: tools/fetch_boost_program_options.sh puts
  # its sources in .deps/ (carry .deps with the call) and they are built with the harness.
  local boost_po=()
  [[ -d .deps/boost_program_options/src ]] &&
    boost_po=(-DPLUGBENCH_BOOST_PROGRAM_OPTIONS_SOURCE="$PWD/.deps/boost_program_options")
  # Nor has it SQLite's header (libsqlite3-dev): tools/fetch_sqlite.sh puts them in .deps/sqlite.
  local sqlite=()
  [[ -f .deps/sqlite/include/sqlite3.h && ! -f /usr/include/sqlite3.h ]] &&
    sqlite=(-DSQLite3_INCLUDE_DIR="$PWD/.deps/sqlite/include"
      -DSQLite3_LIBRARY="$PWD/.deps/sqlite/lib/libsqlite3.so.0")
  # The copied tree's .git is stale: results record PLUGBENCH_SOURCE_COMMIT, given with the call.
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DPLUGBENCH_CUDA="${PLUGBENCH_CUDA:-ON}" \
    -DPLUGBENCH_SOURCE_COMMIT="${PLUGBENCH_SOURCE_COMMIT:-}" \
    -DPLUGBENCH_TUNINGS="${PLUGBENCH_TUNINGS:-OFF}" \
    -DPLUGBENCH_WERROR=ON "${boost_po[@]}" "${sqlite[@]}" >"$OUT/configure.log" 2>&1 || { tail -40 "$OUT/configure.log"; exit 1; }
  # Keep going past a broken target: the other plugins and the harness still get built and run.
  # PLUGBENCH_BUILD_TARGETS (space-separated) builds only those, when device time is short.
  local targets=()
  [[ -n "${PLUGBENCH_BUILD_TARGETS:-}" ]] && read -r -a targets <<<"--target $PLUGBENCH_BUILD_TARGETS"
  if ! cmake --build "$build_dir" -j "$jobs" "${targets[@]}" -- -k >"$OUT/build.log" 2>&1; then
    grep -E "error|Error" "$OUT/build.log" | head -40
    [[ -x "$build_dir/bin/harness" ]] || exit 1
  fi
  export PLUGBENCH_SKIP_BUILD=1
}

stage_test() {
  # GPU tests use small sizes: several at once on the one GPU is fine and saves minutes.
  local started=$SECONDS
  ctest --test-dir "$build_dir" -j "${PLUGBENCH_CTEST_JOBS:-8}" --output-on-failure --timeout 900 \
    >"$OUT/ctest.log" 2>&1
  local rc=$?
  grep -E "tests passed|tests failed|Failed|\*\*\*|SKIPPED|Not Run" "$OUT/ctest.log" | tail -40
  echo "ctest exit code: $rc, $((SECONDS - started)) s at -j ${PLUGBENCH_CTEST_JOBS:-8}"
}

# compute-sanitizer over every GPU plugin x workload x distribution at small sizes, one harness
# run per tool (it follows the harness's worker processes). PLUGBENCH_SANITIZE_TIMEOUT (seconds,
# default 300) bounds each tool's run; PLUGBENCH_SANITIZE_TOOLS (default "memcheck racecheck")
# picks the tools; PLUGBENCH_SANITIZE_SIZES (default 1000,65537) the sizes.
stage_sanitize() {
  # Options given to the stage replace the matrix (default: the four GPU plugins, every workload
  # and distribution), e.g. sanitize -p cuda_optimized -w scan,compact -d all
  local matrix=("$@")
  [[ ${#matrix[@]} -gt 0 ]] || matrix=(-p cuda_naive,cuda_optimized,thrust,cub -w all -d all)
  local log="$OUT/sanitize.log"
  local tools
  read -r -a tools <<<"${PLUGBENCH_SANITIZE_TOOLS:-memcheck racecheck}"
  for tool in "${tools[@]}"; do
    echo "== $tool" | tee -a "$log"
    timeout -s INT -k 20 "${PLUGBENCH_SANITIZE_TIMEOUT:-300}" \
      compute-sanitizer --tool "$tool" --target-processes all --error-exitcode 99 \
      --print-limit 20 "$build_dir/bin/harness" \
      -s "${PLUGBENCH_SANITIZE_SIZES:-1000,65537}" -r 1 --warmup 0 --cache warm --no-json -q --plugin-output-to-stderr \
      "${matrix[@]}" >>"$log" 2>&1
    echo "$tool exit code $?" | tee -a "$log"
  done
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|exit code|cells:" "$log"
}

# Nsight Compute over the kernels of one harness run (one sample each, warm caches): launch
# statistics, occupancy, speed of light, warp stall reasons. Writes NAME.ncu-rep and NAME.csv.
#   PLUGBENCH_NCU_KERNELS  kernel name filter (ncu --kernel-name), e.g. "regex:scan_kernel|DeviceScan"
#   PLUGBENCH_NCU_LAUNCHES how many launches to profile (default 40), counted over every plugin of
#                          the run in its order (cub first): profile one plugin per stage (-p) to
#                          be sure each one's kernels are reached. The harness's own kernels (the
#                          calibration's loops, held starts, clock stamps: a dozen) come first, so
#                          with fewer launches name the plugin's kernels in PLUGBENCH_NCU_KERNELS
#   PLUGBENCH_NCU_SECTIONS the sections (default: the five above; e.g. add InstructionStats;
#                          with SourceCounters, NAME-source.csv holds the sampled stalls per SASS line)
# NAME-raw.csv holds every collected metric, one row per kernel (the warp stall reasons are there,
# not on the details page).
stage_ncu() {
  local name="$1"
  shift
  local ncu_bin
  ncu_bin="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
  local sections=()
  for section in ${PLUGBENCH_NCU_SECTIONS:-LaunchStats Occupancy SpeedOfLight WarpStateStats SchedulerStats}; do
    sections+=(--section "$section")
  done
  if [[ ! -x "$ncu_bin" ]]; then
    echo "ncu: not found (PATH, /usr/local/cuda/bin)"
    return 0
  fi
  timeout -s INT -k 20 "${PLUGBENCH_NCU_TIMEOUT:-300}" "$ncu_bin" --target-processes all \
    --kernel-name "${PLUGBENCH_NCU_KERNELS:-regex:.}" --launch-count "${PLUGBENCH_NCU_LAUNCHES:-40}" \
    "${sections[@]}" --export "$OUT/$name" --force-overwrite \
    "$build_dir/bin/harness" -r 1 --warmup 0 --cache warm --no-json -q "$@" >"$OUT/$name.log" 2>&1
  echo "ncu $name exit code: $?"
  "$ncu_bin" --import "$OUT/$name.ncu-rep" --page details --csv >"$OUT/$name.csv" 2>>"$OUT/$name.log"
  "$ncu_bin" --import "$OUT/$name.ncu-rep" --page raw --csv >"$OUT/$name-raw.csv" 2>>"$OUT/$name.log"
  # With the SourceCounters section: where in the SASS the warps stalled (sampled), per kernel.
  if [[ " ${PLUGBENCH_NCU_SECTIONS:-} " == *" SourceCounters "* ]]; then
    "$ncu_bin" --import "$OUT/$name.ncu-rep" --page source --print-source sass --csv \
      >"$OUT/$name-source.csv" 2>>"$OUT/$name.log"
  fi
  tail -3 "$OUT/$name.log"
}

stage_probe() {
  nvcc -O3 -std=c++20 -arch=sm_90 -Iplugins/cuda_optimized tools/probes/tile_copy_probe.cu \
    -o "$build_dir/tile_copy_probe" >"$OUT/probe-build.log" 2>&1 || { tail -20 "$OUT/probe-build.log"; return; }
  "$build_dir/tile_copy_probe" "$@" | tee -a "$OUT/probe.txt"
}

stage_harness() {
  local name="$1"
  shift
  # PLUGBENCH_HARNESS_TIMEOUT (seconds): a SIGINT then, so the run still writes what it finished
  # (marked incomplete) before the device call's own limit kills everything.
  timeout -s INT -k 30 "${PLUGBENCH_HARNESS_TIMEOUT:-0}" \
    "$build_dir/bin/harness" --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"
  local rc=$?
  echo "harness $name exit code: $rc"
  tail -5 "$OUT/$name.err"
}

# The harness as K MPI ranks (docs/mpi.md); as root, Open MPI needs --allow-run-as-root; the
# sigkill timeout lets a stopped run still write its file.
stage_mpi() {
  local name="$1" ranks="$2"
  shift 2
  timeout -s INT -k 30 "${PLUGBENCH_HARNESS_TIMEOUT:-0}" \
    mpirun --allow-run-as-root --oversubscribe --mca odls_base_sigkill_timeout 30 -np "$ranks" \
    "$build_dir/bin/harness" --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"
  local rc=$?
  echo "mpirun -np $ranks harness $name exit code: $rc"
  tail -5 "$OUT/$name.err"
}

# The host and GPU measurement probes, beside which the harness's figures are checked.
stage_measure_probes() {
  local name="$1"
  shift
  g++ -O3 -std=c++20 -fopenmp tools/probes/host_measure_probe.cpp -o "$build_dir/host_measure_probe" \
    >"$OUT/$name-build.log" 2>&1 || { tail -20 "$OUT/$name-build.log"; return; }
  nvcc -O3 -std=c++20 -arch=sm_90 tools/probes/gpu_measure_probe.cu -o "$build_dir/gpu_measure_probe" \
    >>"$OUT/$name-build.log" 2>&1 || { tail -20 "$OUT/$name-build.log"; return; }
  "$build_dir/host_measure_probe" "$@" >"$OUT/$name-host.csv" 2>"$OUT/$name-host.err"
  echo "host probe exit code: $?"
  "$build_dir/gpu_measure_probe" "$@" >"$OUT/$name-gpu.csv" 2>"$OUT/$name-gpu.err"
  echo "gpu probe exit code: $?"
}

# The host peak probe (tools/probes/host_peak_probe.cpp), to set beside a harness file's peaks.
stage_peak_probe() {
  local name="$1"
  shift
  g++ -O3 -march=native -std=c++20 -fopenmp tools/probes/host_peak_probe.cpp \
    -o "$build_dir/host_peak_probe" >"$OUT/$name-build.log" 2>&1 || { tail -20 "$OUT/$name-build.log"; return; }
  "$build_dir/host_peak_probe" "$@" >"$OUT/$name.csv" 2>&1
  echo "peak probe exit code: $?"
  cat "$OUT/$name.csv"
}

# Seconds from the start of a small run to its first table (issue: time to the first cell), three
# times; options are added to `-w reduce -s 2^20 -p openmp --no-json`. Each progress line on
# stderr gets its second too (first-cell-progress.txt): where the time went.
stage_first_cell() {
  for _ in 1 2 3; do
    local start
    start=$(date +%s.%N)
    "$build_dir/bin/harness" -w reduce -s 2^20 -p openmp --no-json "$@" \
      2> >(while IFS= read -r line; do
        awk -v s="$start" -v e="$(date +%s.%N)" -v l="$line" 'BEGIN { printf "%.2f s %s\n", e - s, l }'
      done >>"$OUT/first-cell-progress.txt") |
      while IFS= read -r line; do
        [[ "$line" == reduce* ]] && awk -v s="$start" -v e="$(date +%s.%N)" \
          'BEGIN { printf "first table after %.2f s\n", e - s }'
      done
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "whole run %.2f s\n", e - s }'
  done | tee "$OUT/first-cell.txt"
}

build
while [[ $# -gt 0 ]]; do
  stage="$1"
  shift
  args=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do args+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  case "$stage" in
    test) stage_test ;;
    sanitize) stage_sanitize "${args[@]}" ;;
    harness) stage_harness "${args[@]}" ;;
    mpi) stage_mpi "${args[@]}" ;;
    ncu) stage_ncu "${args[@]}" ;;
    probe) stage_probe "${args[@]}" ;;
    measure-probes) stage_measure_probes "${args[@]}" ;;
    peak-probe) stage_peak_probe "${args[@]}" ;;
    first-cell) stage_first_cell "${args[@]}" ;;
    *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
