// test_check_plugin.cpp: harness --check-plugin as a plugin author meets it: the descriptor, each
// kernel checked against the references on the awkward sizes, and what is wrong said plainly, with
// exit 0 (all passed), 1 (a wrong answer), 2 (not a loadable plugin) and 3 (an error, a crash or a
// hang, each in a worker process as in a run).
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::plugin_dir;
using plugbench::testing::run_harness;

// The library a fake_plugin(<folder> ...) line in tests/fake_plugins builds.
std::string fake_plugin(const std::string& folder) {
  return fake_plugin_dir(folder) + "/libplugbench_fake_" + folder + ".so";
}

TEST(CheckPlugin, AGoodPluginIsDescribedAndPasses) {
  CommandResult r = run_harness({"--check-plugin", fake_plugin("good")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "name:          fake_good")) << r.out;
  EXPECT_TRUE(contains(r.out, "plugin ABI:    1.1")) << r.out;
  EXPECT_TRUE(contains(r.out, "memory space:  host")) << r.out;
  EXPECT_TRUE(contains(r.out, "  compiler: ")) << r.out;
  EXPECT_TRUE(contains(r.out, "probe:         available")) << r.out;
  EXPECT_TRUE(contains(r.out, "  reduce/fake_loop\n    flags: none; max_n: no limit")) << r.out;
  // reduce has three distributions, each at the nine awkward sizes.
  EXPECT_TRUE(contains(r.out, "reduce/fake_loop: ok, 27 of 27 problems verified")) << r.out;
  EXPECT_TRUE(contains(r.out, "n = 0, 1, 7, 33, 257, 1000, 4099, 65537, 1000003")) << r.out;
  EXPECT_TRUE(contains(r.out, "result: all kernels passed")) << r.out;
}

TEST(CheckPlugin, AWrongAnswerNamesTheKernelAndWhatWasWrongAndExitsOne) {
  CommandResult r = run_harness({"--check-plugin", fake_plugin("wrong_answer")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "reduce/fake_loop: WRONG ANSWER on 27 of 27 problems")) << r.out;
  EXPECT_TRUE(contains(r.out, "mod100 n=0: failed: wrong answer: expected 0, got 1")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "compared sum of 0 int32 as int64; absolute difference 1, "
                       "tolerance 0"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "... and 21 more")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 gave wrong answers")) << r.out;
  EXPECT_TRUE(contains(r.out, "result: WRONG ANSWERS (exit 1)")) << r.out;
}

TEST(CheckPlugin, AKernelErrorIsReportedWithThePluginsMessageAndExitsThree) {
  CommandResult r = run_harness({"--check-plugin", fake_plugin("kernel_error")});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "reduce/fake_loop: ERROR on 27 of 27 problems")) << r.out;
  EXPECT_TRUE(contains(r.out, "the device caught fire")) << r.out;
  EXPECT_TRUE(contains(r.out, "result: ERRORS (exit 3)")) << r.out;
}

TEST(CheckPlugin, ATextFileIsNotAPluginAndSaysWhy) {
  CommandResult r =
      run_harness({"--check-plugin", fake_plugin_dir("not_a_library") + "/libplugbench_text.so"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "libplugbench_text.so: cannot be loaded as a shared library"))
      << r.err;
}

TEST(CheckPlugin, ARefusedPluginGivesTheLoadersReason) {
  CommandResult major = run_harness({"--check-plugin", fake_plugin("wrong_major")});
  EXPECT_EQ(major.exit_code, 2) << major.out << major.err;
  EXPECT_TRUE(contains(major.err, "major versions differ")) << major.err;

  CommandResult no_entry = run_harness({"--check-plugin", fake_plugin("no_entry")});
  EXPECT_EQ(no_entry.exit_code, 2) << no_entry.out << no_entry.err;
  EXPECT_TRUE(contains(no_entry.err, "no 'plugbench_plugin_entry' symbol")) << no_entry.err;

  CommandResult missing = run_harness({"--check-plugin", "/nonexistent/libplugbench_x.so"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "No such file or directory")) << missing.err;
}

TEST(CheckPlugin, AnUnavailablePluginIsDescribedButNotRun) {
  CommandResult r = run_harness({"--check-plugin", fake_plugin("unavailable")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "probe:         unavailable: fake device is switched off")) << r.out;
  EXPECT_TRUE(contains(r.out, "its kernels were not run")) << r.out;
}

TEST(CheckPlugin, WorkloadAndVariantsNarrowTheKernelsChecked) {
  CommandResult r =
      run_harness({"--check-plugin", plugin_dir() + "/libplugbench_cpu_serial.so", "--workload",
                   "dot", "--variants", "float_accumulator,double_accumulator"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // the float accumulator is wrong at n = 1000003
  EXPECT_TRUE(contains(r.out, "dot/float_accumulator: WRONG ANSWER")) << r.out;
  EXPECT_FALSE(contains(r.out, "reduce/loop:")) << r.out;

  CommandResult unknown = run_harness({"--check-plugin", fake_plugin("good"), "--workload", "fft"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "'fft' is not a workload")) << unknown.err;
}

TEST(CheckPlugin, SizesAreCheckedBesideTheAwkwardOnesAndReadAsInARun) {
  CommandResult r =
      run_harness({"--check-plugin", fake_plugin("good"), "-s", "2^12,3000,1000,65537"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Three distributions at the nine awkward sizes and the two given that are not among them.
  EXPECT_TRUE(contains(r.out, "reduce/fake_loop: ok, 33 of 33 problems verified")) << r.out;
  EXPECT_TRUE(contains(r.out, "and the sizes given with --sizes")) << r.out;

  // Sizes for other workloads leave reduce at the awkward ones.
  CommandResult named =
      run_harness({"--check-plugin", plugin_dir() + "/libplugbench_cpu_serial.so", "-w",
                   "reduce,dot", "--variants", "loop,double_accumulator", "-s", "dot=2^12"});
  EXPECT_EQ(named.exit_code, 0) << named.out << named.err;
  EXPECT_TRUE(contains(named.out, "reduce/loop: ok, 27 of 27 problems verified")) << named.out;
  EXPECT_TRUE(contains(named.out, "dot/double_accumulator: ok, 30 of 30 problems verified"))
      << named.out;

  CommandResult unselected =
      run_harness({"--check-plugin", fake_plugin("good"), "-w", "reduce", "-s", "sort=2^12"});
  EXPECT_EQ(unselected.exit_code, 2) << unselected.out;
  EXPECT_TRUE(contains(unselected.err, "sizes for sort, which this run does not include"))
      << unselected.err;
  CommandResult malformed = run_harness({"--check-plugin", fake_plugin("good"), "-s", "2^x"});
  EXPECT_EQ(malformed.exit_code, 2) << malformed.out;
  EXPECT_TRUE(contains(malformed.err, "--sizes: bad size")) << malformed.err;
}

// Mistakes that easy data hide, each caught at the check sizes by the distribution made for it:
// an int32 accumulator (reduce near_max), one float running sum (dot large_first), keys ordered as
// int32 (sort top_bit), and Mandelbrot pixels mapped to other points; the GPU's one FMA passes.
TEST(CheckPlugin, MistakesThatEasyDataHideAreCaughtAtTheCheckSizes) {
  CommandResult r = run_harness(
      {"--check-plugin", fake_plugin_dir("subtle_bugs") + "/libplugbench_fake_subtle.so"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "reduce/int32_accumulator: WRONG ANSWER")) << r.out;
  EXPECT_TRUE(contains(r.out, "near_max n=7: failed")) << r.out;
  EXPECT_TRUE(contains(r.out, "dot/float_accumulator: WRONG ANSWER")) << r.out;
  EXPECT_TRUE(contains(r.out, "large_first n=1000: failed")) << r.out;
  EXPECT_TRUE(contains(r.out, "sort/signed_keys: WRONG ANSWER")) << r.out;
  EXPECT_TRUE(contains(r.out, "mandelbrot/pixel_centres: WRONG ANSWER")) << r.out;
  EXPECT_TRUE(contains(r.out, "mandelbrot/double_corners: WRONG ANSWER")) << r.out;
  EXPECT_TRUE(contains(r.out, "pixels equal to neither reference")) << r.out;
  EXPECT_TRUE(contains(r.out, "mandelbrot/fma_contracted: ok, 5 of 5 problems verified")) << r.out;
}

using plugbench::testing::kPlainSegfaults;

TEST(CheckPlugin, ASegfaultingKernelIsNamedAndTheOtherKernelsStillRun) {
  CommandResult r = run_harness({"--check-plugin", fake_plugin("segfault")}, kPlainSegfaults);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out,
                       "reduce/fake_loop: ERROR on 1 of 1 problems (crashed); 26 more "
                       "problems not run after it crashed or hung"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "killed by signal 11 (Segmentation fault)")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduce/good_loop: ok, 27 of 27 problems verified")) << r.out;
  EXPECT_TRUE(contains(r.out, "result: ERRORS (exit 3): reduce/fake_loop (crashed)")) << r.out;
}

// Caught by the guard after the output however far the heap's bookkeeping is from it.
TEST(CheckPlugin, AKernelThatOverrunsItsOutputIsAWrongAnswerThatSaysHowFar) {
  CommandResult r = run_harness({"--check-plugin", fake_plugin("contract"), "-w", "reduce"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "reduce/overruns_4096_bytes: WRONG ANSWER on 27 of 27 problems"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "n=0: failed: wrote past output 0 (sum) by at least 4096 bytes"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "reduce/honest: ok, 27 of 27 problems verified")) << r.out;
}

TEST(CheckPlugin, AHangingKernelTimesOutUnderTimeoutAndTheCheckEnds) {
  const auto started = std::chrono::steady_clock::now();
  CommandResult r = run_harness({"--check-plugin", fake_plugin("hang"), "--timeout", "1"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "at most 1 s a problem, --timeout")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduce/fake_loop: ERROR on 1 of 1 problems (timeout)")) << r.out;
  // Deaf to SIGTERM: stopped with SIGKILL after the grace period, still one timeout.
  EXPECT_TRUE(contains(r.out, "reduce/ignores_sigterm: ERROR on 1 of 1 problems (timeout)"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "reduce/good_loop: ok, 27 of 27 problems verified")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "result: ERRORS (exit 3): reduce/fake_loop (timeout), "
                       "reduce/ignores_sigterm (timeout)"))
      << r.out;
  // Each hung kernel costs its one --timeout (and a grace period), not one per problem.
  EXPECT_LT(seconds, 60) << r.out;
}

TEST(CheckPlugin, VariantsSelectAsInARun) {
  // A leading '-' leaves a kernel out; a plugin-qualified name selects one.
  CommandResult without =
      run_harness({"--check-plugin", fake_plugin("segfault"), "--variants", "all,-fake_loop"});
  EXPECT_EQ(without.exit_code, 0) << without.out << without.err;
  EXPECT_FALSE(contains(without.out, "reduce/fake_loop:")) << without.out;
  EXPECT_TRUE(contains(without.out, "result: all kernels passed")) << without.out;

  CommandResult qualified =
      run_harness({"--check-plugin", plugin_dir() + "/libplugbench_cpu_serial.so", "--variants",
                   "cpu_serial/loop", "--workload", "reduce"});
  EXPECT_EQ(qualified.exit_code, 0) << qualified.out << qualified.err;
  EXPECT_TRUE(contains(qualified.out, "reduce/loop: ok")) << qualified.out;

  CommandResult unknown =
      run_harness({"--check-plugin", fake_plugin("good"), "--variants", "no_such_kernel"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.out << unknown.err;
  EXPECT_TRUE(contains(unknown.err, "unknown variant 'no_such_kernel'")) << unknown.err;
}

}  // namespace
}  // namespace plugbench
