#!/usr/bin/env bash
# fuzz_results_reader.sh [SECONDS]: builds the results reader's fuzz target (tests/fuzz, Clang's
# libFuzzer with AddressSanitizer and UBSan) in build-fuzz/ and runs it for SECONDS (default 60)
# from the seeds in tests/fuzz/seeds and the corpus earlier runs grew (build-fuzz/corpus).
# A finding (a crash, a sanitizer report, an exception other than the reader's refusal) is saved
# as build-fuzz/findings/crash-* and the script exits 1; rerun one with
#   build-fuzz/results_reader_fuzzer build-fuzz/findings/crash-...
# FUZZ_SEED (default 1) fixes libFuzzer's random choices, so that CI explores the same inputs each
# time; FUZZ_SEED=0 lets libFuzzer pick (for longer runs by hand).
# Needs clang++ and libFuzzer (Debian: apt-get install clang libclang-rt-dev); exits 2 without.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build=build-fuzz

if ! command -v clang++ >/dev/null; then
  echo "fuzz_results_reader: clang++ not found (Debian: apt-get install clang libclang-rt-dev)" >&2
  exit 2
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
  >"$probe/probe.cpp"
if ! clang++ -fsanitize=fuzzer "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/err"; then
  echo "fuzz_results_reader: clang++ cannot link libFuzzer (Debian: apt-get install" \
    "libclang-rt-dev): $(head -c 300 "$probe/err")" >&2
  exit 2
fi

cmake -S tests/fuzz -B "$build" -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p "$build/corpus" "$build/findings"
# -timeout: an input read for 10 s is a finding (a reader must be near-linear); -rss_limit_mb: one
# that needs 2 GiB is one too. Inputs up to 64 KiB: the seeds are 10-20 KiB.
if ! "$build/results_reader_fuzzer" "$build/corpus" tests/fuzz/seeds \
  -dict=tests/fuzz/results.dict -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -seed="${FUZZ_SEED:-1}" \
  -rss_limit_mb=2048 -artifact_prefix="$build/findings/" -print_final_stats=1 \
  2>"$build/last-run.log"; then
  tail -n 40 "$build/last-run.log" >&2
  echo "fuzz_results_reader: a finding, saved in $build/findings/ (the log: $build/last-run.log)" >&2
  exit 1
fi
grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ *DONE" "$build/last-run.log" >&2 || true
echo "fuzz_results_reader: no finding in ${seconds} s ($(ls "$build/corpus" | wc -l) inputs in the corpus)" >&2
