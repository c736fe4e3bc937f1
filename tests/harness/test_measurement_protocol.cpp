// test_measurement_protocol.cpp: what docs/measurement.md promises about a sample, checked where
// no GPU is needed: the host flush runs on every thread of the team and only reads a buffer that
// was written once (no dirty lines), the throttle guard drops slow GPU samples but never all of
// them, read-only workloads are held against the read rate, and the new fields reach the results.
#include "base/cpu_frequency.hpp"
#include "measure/calibration.hpp"
#include "measure/host_stream_loops.hpp"
#include "measure/throttle_guard.hpp"
#include "results/results_json.hpp"
#include "test_support.hpp"

#include <plugbench/openmp_services.hpp>

#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

namespace plugbench {
namespace {

using testing::CommandResult;
using testing::ScopedEnv;
using testing::TempFolder;

// Restores the OpenMP team size a test changed.
class TeamSize {
 public:
  explicit TeamSize(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~TeamSize() { omp_set_num_threads(saved_); }

 private:
  int saved_;
};

TEST(HostFlush, EveryThreadOfTheTeamReadsItsShareOfTheWholeBuffer) {
  TeamSize team(3);
  sdk::OpenMPHostServices services(0);
  services.flush_cache();
  const std::vector<sdk::FlushShare>& read = services.last_flush_read();
  ASSERT_EQ(read.size(), 3u);
  std::set<long> threads;
  std::uint64_t total = 0;
  for (std::size_t thread = 0; thread < read.size(); ++thread) {
    EXPECT_GT(read[thread].bytes, 0u) << "thread " << thread << " did not take part in the flush";
    threads.insert(read[thread].thread_id);
    total += read[thread].bytes;
  }
  // Three shares read by three OS threads, not one thread reading all three.
  EXPECT_EQ(threads.size(), 3u);
  EXPECT_EQ(total, services.flush_buffer().bytes());
}

TEST(HostFlush, TheTeamsServicesRefuseToRunInsideAParallelRegion) {
  TeamSize team(2);
  sdk::OpenMPHostServices services(0);
  int refused = 0;
#pragma omp parallel reduction(+ : refused)
  {
    try {
      services.flush_cache();
    } catch (const sdk::Failure& failure) {
      refused += testing::contains(failure.what(), "inside an OpenMP parallel region") ? 1 : 0;
    }
  }
  EXPECT_EQ(refused, 2);
}

TEST(HostFlush, TheBufferOutgrowsTheLastLevelCacheAndEachThreadsL2) {
  // The flush a user's run takes, not the test suite's quick one.
  ScopedEnv full("PLUGBENCH_CALIBRATION", std::nullopt);
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  const std::size_t bytes = sdk::HostFlushBuffer::bytes_for(8);
  if (l3 > 0) {
    EXPECT_GE(bytes, 2 * static_cast<std::size_t>(l3));
  }
  if (l2 > 0) {
    EXPECT_GE(bytes, 8 * 2 * static_cast<std::size_t>(l2));
  }
  EXPECT_GE(bytes, std::size_t{1} << 20);
}

// The test suite's harnesses flush 8 MiB (PLUGBENCH_CALIBRATION=quick), so that a cold sample in
// a test costs no read of a buffer twice the size of a server's L3; any other value flushes as a
// user's run does.
TEST(HostFlush, OnlyTheTestSuitesQuickScaleFlushesASmallBuffer) {
  std::size_t users = 0;
  {
    ScopedEnv unset("PLUGBENCH_CALIBRATION", std::nullopt);
    users = sdk::HostFlushBuffer::bytes_for(8);
  }
  for (const char* value : {"full", "sloppy", "", "QUICK", "quick "}) {
    ScopedEnv other("PLUGBENCH_CALIBRATION", value);
    EXPECT_EQ(sdk::HostFlushBuffer::bytes_for(8), users) << "'" << value << "'";
  }
  ScopedEnv quick("PLUGBENCH_CALIBRATION", "quick");
  EXPECT_EQ(sdk::HostFlushBuffer::bytes_for(8), std::size_t{8} << 20);
  EXPECT_EQ(sdk::HostFlushBuffer::bytes_for(1), std::size_t{8} << 20);
}

TEST(HostFlush, TheSerialTeamFlushesOnItsOneThread) {
  sdk::HostServices services(0);
  services.flush_cache();
  ASSERT_EQ(services.last_flush_read().size(), 1u);
  EXPECT_EQ(services.last_flush_read()[0].bytes, services.flush_buffer().bytes());
}

// A flush that wrote its buffer would leave dirty lines for the next sample to write back: after
// its first fill the buffer is read-only, so a write faults.
TEST(HostFlushDeathTest, TheBufferIsReadOnlyAfterItsFirstFill) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  sdk::HostServices services(0);
  services.flush_cache();
  auto* data = const_cast<unsigned char*>(services.flush_buffer().data());
  EXPECT_DEATH({ *static_cast<volatile unsigned char*>(data) = 7; }, "");
  services.flush_cache();  // and reading it again still works
  EXPECT_EQ(services.last_flush_read()[0].bytes, services.flush_buffer().bytes());
}

// Through the harness: fake_flush_spy logs, at every call, what the flush before it did.
std::vector<std::string> flush_log_of_run(const std::string& cache) {
  TempFolder folder;
  const std::string log = folder.file("flush.log");
  CommandResult r =
      testing::run_harness({"--plugin-dir", testing::fake_plugin_dir("flush_spy"), "-p",
                            "fake_flush_spy", "-w", "reduce", "-s", "4096", "-r", "4", "--warmup",
                            "0", "--cache", cache, "--json", folder.file("r.json")},
                           "OMP_NUM_THREADS=3 PLUGBENCH_FAKE_FLUSH_LOG='" + log + "' ");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = testing::read_json(folder.file("r.json"));
  const nlohmann::json& cell = results["results"].at(0);
  EXPECT_EQ(cell["team"]["threads"], 3);
  EXPECT_EQ(cell["sampling"]["start"],
            "not held: host plugin (its team is woken before the clock starts)");
  return testing::lines_of(testing::read_text(log));
}

TEST(HostFlush, EveryColdSampleOfARunFollowsAFlushOnEveryThreadOfAReadOnlyBuffer) {
  std::vector<std::string> lines = flush_log_of_run("cold");
  // The checked call comes before any flush; then four samples, each after its flush.
  ASSERT_GE(lines.size(), 5u);
  EXPECT_TRUE(testing::contains(lines[0], "none")) << lines[0];
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::istringstream in(lines[i]);
    std::string word, permissions;
    int team = 0;
    std::size_t bytes = 0;
    in >> word >> team >> word >> bytes >> permissions >> word;
    EXPECT_EQ(team, 3) << lines[i];
    EXPECT_EQ(permissions, "r--p") << "the flush buffer must be read-only: " << lines[i];
    std::uint64_t total = 0;
    std::set<long> threads;
    int shares = 0;
    for (std::string share; in >> share; ++shares) {
      const std::uint64_t read = std::stoull(share.substr(0, share.find(':')));
      EXPECT_GT(read, 0u) << lines[i];
      total += read;
      threads.insert(std::stol(share.substr(share.find(':') + 1)));
    }
    EXPECT_EQ(shares, 3) << lines[i];
    EXPECT_EQ(threads.size(), 3u) << "three shares read by three threads: " << lines[i];
    EXPECT_EQ(total, bytes) << lines[i];
  }
}

TEST(HostFlush, WarmSamplesAreNotFlushed) {
  for (const std::string& line : flush_log_of_run("warm")) {
    EXPECT_TRUE(testing::contains(line, "none")) << line;
  }
}

TEST(ThrottleGuard, KeepsSamplesAtOrAboveTheThresholdAndUnmeasuredOnes) {
  ThrottleGuard guard(1'980'000, 0.75);
  EXPECT_DOUBLE_EQ(guard.threshold_khz(), 1'485'000);
  EXPECT_FALSE(guard.judge(1'980'000).drop);
  EXPECT_FALSE(guard.judge(1'485'000).drop);
  EXPECT_FALSE(guard.judge(0).drop);  // no clock measured: nothing to judge
  EXPECT_EQ(guard.dropped(), 0);
}

TEST(ThrottleGuard, DropsAThrottledSampleWithAGrowingPause) {
  ThrottleGuard guard(1'000'000, 0.75, 3, 0.05, 0.5);
  ThrottleGuard::Verdict first = guard.judge(700'000);
  EXPECT_TRUE(first.drop);
  EXPECT_DOUBLE_EQ(first.pause_s, 0.05);
  ThrottleGuard::Verdict second = guard.judge(700'000);
  EXPECT_TRUE(second.drop);
  EXPECT_DOUBLE_EQ(second.pause_s, 0.1);
  EXPECT_EQ(guard.dropped(), 2);
  // Recovered: the next throttled sample starts again from the first pause.
  EXPECT_FALSE(guard.judge(990'000).drop);
  EXPECT_DOUBLE_EQ(guard.judge(100'000).pause_s, 0.05);
}

TEST(ThrottleGuard, NeverLeavesACellWithoutSamples) {
  ThrottleGuard guard(1'000'000, 0.75, 3);
  int kept = 0;
  // A GPU throttled for good (or clocks locked low): three drops, a kept sample, three drops, a
  // kept sample, and then every sample is kept: the cell's time is not wasted on more pauses.
  for (int attempt = 0; attempt < 40; ++attempt) kept += guard.judge(500'000).drop ? 0 : 1;
  EXPECT_EQ(kept, 34);
  EXPECT_EQ(guard.dropped(), 6);
  EXPECT_EQ(guard.kept_below_threshold(), 34);
}

TEST(ThrottleGuard, AFullClockSampleBetweenResetsTheGuard) {
  ThrottleGuard guard(1'000'000, 0.75, 1);
  EXPECT_TRUE(guard.judge(500'000).drop);
  EXPECT_FALSE(guard.judge(500'000).drop);  // kept by the guard
  EXPECT_FALSE(guard.judge(1'000'000).drop);
  EXPECT_TRUE(guard.judge(500'000).drop);  // dropping again: the GPU recovered in between
  EXPECT_EQ(guard.dropped(), 2);
}

TEST(ThrottleGuard, AThresholdOfZeroOrAnUnknownDefaultClockChecksNothing) {
  ThrottleGuard off(1'000'000, 0);
  ThrottleGuard unknown(0, 0.75);
  EXPECT_FALSE(off.judge(1).drop);
  EXPECT_FALSE(unknown.judge(1).drop);
}

// fake_throttled's timer: two samples in three at 40 % of its 1000 MHz default clock.
nlohmann::json throttled_cell(const std::string& environment, const std::string& threshold) {
  TempFolder folder;
  CommandResult r = testing::run_harness(
      {"--plugin-dir", testing::fake_plugin_dir("throttled"), "-p", "fake_throttled", "-w",
       "reduce", "-s", "4096", "-r", "4", "--warmup", "0", "--throttle-threshold", threshold,
       "--json", folder.file("r.json")},
      environment);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return testing::read_json(folder.file("r.json"))["results"].at(0);
}

TEST(ThrottledSamples, AreDroppedAndRetakenSoTheCellKeepsOnlyFullClockSamples) {
  nlohmann::json cell = throttled_cell("", "0.75");
  EXPECT_EQ(cell["status"], "ok");
  EXPECT_EQ(cell["time"]["kernel"]["repetitions"], 4);
  const nlohmann::json& sampling = cell["sampling"];
  EXPECT_EQ(sampling["start"], "held");
  EXPECT_GE(sampling["throttle"]["dropped"].get<int>(), 4);
  EXPECT_EQ(sampling["throttle"]["kept_below_threshold"], 0);
  EXPECT_EQ(sampling["sm_clock"]["samples"], 4);
  EXPECT_DOUBLE_EQ(sampling["sm_clock"]["min_mhz"].get<double>(), 1000);
  EXPECT_DOUBLE_EQ(sampling["sm_clock"]["default_mhz"].get<double>(), 1000);
}

TEST(ThrottledSamples, AGpuThrottledForGoodStillEndsTheCellWithItsSamples) {
  nlohmann::json cell = throttled_cell("PLUGBENCH_FAKE_ALWAYS_THROTTLED=1 ", "0.75");
  EXPECT_EQ(cell["status"], "ok");
  EXPECT_EQ(cell["time"]["kernel"]["repetitions"], 4);
  EXPECT_EQ(cell["sampling"]["throttle"]["kept_below_threshold"], 4);
  EXPECT_EQ(cell["sampling"]["throttle"]["dropped"], 6);  // 3 + 3, then it stops dropping
  EXPECT_DOUBLE_EQ(cell["sampling"]["sm_clock"]["mean_mhz"].get<double>(), 400);
}

TEST(ThrottledSamples, AThresholdOfZeroKeepsEverySample) {
  nlohmann::json cell = throttled_cell("", "0");
  EXPECT_EQ(cell["sampling"]["throttle"]["dropped"], 0);
  EXPECT_EQ(cell["sampling"]["sm_clock"]["samples"], 4);
}

TEST(HeldSamples, AKernelThatWaitsForTheDeviceIsTimedUnheldFromItsCheckedCallOn) {
  nlohmann::json cell = throttled_cell("PLUGBENCH_FAKE_HOLD_TIMES_OUT=1 ", "0");
  EXPECT_EQ(cell["status"], "ok");
  EXPECT_EQ(cell["time"]["kernel"]["repetitions"], 4);
  EXPECT_LT(cell["time"]["kernel"]["max_ms"].get<double>(), 999);  // the timed-out one dropped
  EXPECT_TRUE(
      testing::contains(cell["sampling"]["start"].get<std::string>(),
                        "not held: the host waited for the device while enqueuing the kernel"))
      << cell["sampling"];
}

TEST(AbiMinor, AnAbi10PluginRunsAndNothingPastItsTableIsRead) {
  TempFolder folder;
  CommandResult r = testing::run_harness({"--plugin-dir", testing::fake_plugin_dir("abi_1_0"), "-p",
                                          "fake_abi10", "-w", "reduce", "-s", "4096", "-r", "3",
                                          "--json", folder.file("r.json")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json cell = testing::read_json(folder.file("r.json"))["results"].at(0);
  EXPECT_EQ(cell["status"], "ok");
  EXPECT_TRUE(cell["team"].is_null());  // it cannot say: execution_context is ABI 1.1
  EXPECT_EQ(cell["sampling"]["start"],
            "not held: the plugin has no ABI 1.1 timer (timer_begin / timer_end)");
}

TEST(PeakPerPattern, ReadOnlyWorkloadsAreHeldAgainstTheReadRate) {
  std::vector<PeakBandwidth> peaks(2);
  peaks[0].memory_space = peaks[1].memory_space = MemorySpace::device;
  peaks[0].pattern = "copy";
  peaks[0].gbps = 4200;
  peaks[1].pattern = "read";
  peaks[1].gbps = 4400;
  EXPECT_EQ(peak_for(peaks, MemorySpace::device, MemoryPattern::read)->gbps, 4400);
  EXPECT_EQ(peak_for(peaks, MemorySpace::device, MemoryPattern::copy)->gbps, 4200);
  EXPECT_EQ(peak_for(peaks, MemorySpace::host, MemoryPattern::copy), nullptr);
  peaks.pop_back();  // a plugin without read_within: the copy rate is all there is
  EXPECT_EQ(peak_for(peaks, MemorySpace::device, MemoryPattern::read)->gbps, 4200);
}

// 64-byte aligned 64-bit words 1, 2, 3, ... of `bytes` (the loops load whole aligned lines).
struct CountingWords {
  explicit CountingWords(std::uint64_t bytes)
      : words(static_cast<std::uint64_t*>(std::aligned_alloc(64, bytes))), count(bytes / 8) {
    std::iota(words, words + count, std::uint64_t{1});
  }
  ~CountingWords() { std::free(words); }
  CountingWords(const CountingWords&) = delete;
  CountingWords& operator=(const CountingWords&) = delete;
  char* bytes() { return reinterpret_cast<char*>(words); }
  std::vector<std::uint64_t> values() const { return {words, words + count}; }
  std::uint64_t* words;
  std::uint64_t count;
};

// 1001 lines: every share at 1, 3, 7 and 16 threads a length that is not a multiple of the loops'
// unrolling (four lines), so each tail runs.
constexpr std::uint64_t kLoopBytes = 64 * 1001;

// Every ISA this CPU runs, so that the AVX2 and SSE2 loops run on an AVX-512 machine too.
std::vector<std::optional<StreamIsa>> isas_to_test() {
  std::vector<std::optional<StreamIsa>> isas{std::nullopt};  // the widest, as the harness runs
  for (StreamIsa isa : stream_isas_this_cpu_runs()) isas.push_back(isa);
  return isas;
}

TEST(HostStreamLoops, EveryReadLoopReadsEveryWordOfItsBuffersOnceInEveryIsaAndTeamSize) {
  CountingWords first(kLoopBytes), second(kLoopBytes);
  std::reverse(second.words, second.words + second.count);  // not the same words as the first
  second.words[0] += 1000;
  const std::vector<std::uint64_t> a = first.values(), b = second.values();
  const std::uint64_t sum_a = std::accumulate(a.begin(), a.end(), std::uint64_t{0});
  const std::uint64_t sum_b = std::accumulate(b.begin(), b.end(), std::uint64_t{0});
  const int before = omp_get_max_threads();
  for (const std::optional<StreamIsa>& isa : isas_to_test()) {
    const auto loops = isa ? host_read_loops(first.bytes(), second.bytes(), kLoopBytes, *isa)
                           : host_read_loops(first.bytes(), second.bytes(), kLoopBytes);
#if defined(__x86_64__)
    ASSERT_EQ(loops.size(), 3u);  // a plain sum, wide loads, two buffers
#endif
    for (int threads : {1, 3, 7, 16}) {
      omp_set_num_threads(threads);
      for (const HostStreamLoop& loop : loops) {
        const bool both = loop.bytes_per_pass == 2.0 * double(kLoopBytes);
        EXPECT_TRUE(both || loop.bytes_per_pass == double(kLoopBytes)) << loop.name;
        EXPECT_EQ(loop.run(), both ? sum_a + sum_b : sum_a)
            << loop.name << " on " << threads << " threads";
      }
    }
  }
  omp_set_num_threads(before);
}

TEST(HostStreamLoops, EveryCopyLoopCopiesEveryByteInEveryIsaAndTeamSize) {
  CountingWords source(kLoopBytes), target(kLoopBytes);
  const int before = omp_get_max_threads();
  for (const std::optional<StreamIsa>& isa : isas_to_test()) {
    const auto loops = isa ? host_copy_loops(target.bytes(), source.bytes(), kLoopBytes, *isa)
                           : host_copy_loops(target.bytes(), source.bytes(), kLoopBytes);
#if defined(__x86_64__)
    ASSERT_EQ(loops.size(), 2u);  // memcpy, streaming stores
#endif
    for (int threads : {1, 3, 7, 16}) {
      omp_set_num_threads(threads);
      for (const HostStreamLoop& loop : loops) {
        std::fill(target.words, target.words + target.count, 0);
        loop.run();
        EXPECT_EQ(target.values(), source.values()) << loop.name << " on " << threads << " threads";
        EXPECT_EQ(loop.bytes_per_pass, 2.0 * double(kLoopBytes)) << loop.name;
      }
    }
  }
  omp_set_num_threads(before);
}

TEST(HostStreamLoops, TheWidestIsaIsTheOneARunUses) {
  const std::vector<StreamIsa> isas = stream_isas_this_cpu_runs();
  if (isas.empty()) GTEST_SKIP() << "no wide loops on this CPU architecture";
  CountingWords first(kLoopBytes), second(kLoopBytes);
  const auto widest = host_read_loops(first.bytes(), second.bytes(), kLoopBytes);
  const auto named = host_read_loops(first.bytes(), second.bytes(), kLoopBytes, isas.back());
  for (std::size_t i = 0; i < widest.size(); ++i) EXPECT_EQ(widest[i].name, named[i].name);
}

TEST(PeakPerPattern, AnAddressSpaceLimitHalvesTheHostBuffersRatherThanEndingTheRun) {
  if (testing::kUnderAddressSanitizer) {
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space for its shadow memory, "
                    "so the ulimit -v cap this test needs cannot be set; the plain build runs it";
  }
  TempFolder folder;
  // About 880 MiB of address space: two 512 MiB buffers do not fit in it, two of 256 MiB do.
  CommandResult r = testing::run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r",
                                          "3", "--json", folder.file("r.json")},
                                         "unset PLUGBENCH_CALIBRATION; ulimit -v 900000; ");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = testing::read_json(folder.file("r.json"));
  for (const nlohmann::json& peak : results["context"]["peaks"]) {
    if (peak["memory_space"] != "host") continue;
    EXPECT_FALSE(testing::contains(peak["measured_by"].get<std::string>(), "quick")) << peak.dump();
    EXPECT_LT(peak["bytes"].get<std::uint64_t>(), 512ull << 20) << peak.dump();
    EXPECT_GE(peak["bytes"].get<std::uint64_t>(), 64ull << 20) << peak.dump();
    EXPECT_GT(peak["gbps"].get<double>(), 0) << peak.dump();
  }
}

TEST(PeakPerPattern, TheLoopsOfAPeakTravelThroughJson) {
  PeakBandwidth peak;
  peak.memory_space = MemorySpace::host;
  peak.pattern = "read";
  peak.measured_by = "harness: two buffers";
  peak.bytes = 1 << 20;
  peak.gbps = 20;
  peak.methods = {{"plain", 15, 2, 3}, {"two buffers", 20, 1.5, 2.5}};
  const PeakBandwidth back = peak_from_json(to_json(peak));
  ASSERT_EQ(back.methods.size(), 2u);
  EXPECT_EQ(back.methods[1].name, "two buffers");
  EXPECT_EQ(back.methods[1].gbps, 20);
  EXPECT_EQ(back.methods[0].best_ms, 2);
  EXPECT_EQ(back.methods[0].median_ms, 3);
  nlohmann::json without = to_json(peak);
  without.erase("methods");  // a file from before the loops were recorded
  EXPECT_TRUE(peak_from_json(without).methods.empty());
}

// The test suite's quick calibration says so in the file (in each peak, and in the settings,
// which hold for a run with no peak too), and a user's run never gets it unasked.
TEST(PeakPerPattern, AQuickCalibrationIsSmallAndSaysSoAndIsNeverTheDefault) {
  TempFolder folder;
  const std::vector<std::string> run = {"-p",   "cpu_serial", "-w", "reduce", "-s",
                                        "1000", "-r",         "3",  "--json", folder.file("r.json"),
                                        "-q"};
  // Unset, the calibration is the full one: AnAddressSpaceLimitHalvesTheHostBuffers... checks it.
  for (const char* setting : {"quick", "sloppy"}) {
    const std::string prefix = "export PLUGBENCH_CALIBRATION=" + std::string(setting) + "; ";
    CommandResult r = testing::run_harness(run, prefix);
    ASSERT_EQ(r.exit_code, 0) << setting << ": " << r.out << r.err;
    const bool quick = std::string(setting) == "quick";
    EXPECT_EQ(testing::contains(r.err, "'sloppy' is not 'full' or 'quick'"),
              std::string(setting) == "sloppy")
        << r.err;
    nlohmann::json results = testing::read_json(folder.file("r.json"));
    const nlohmann::json& settings = results["context"]["settings"];
    if (quick) {
      EXPECT_EQ(settings.value("test_scale", ""), "quick") << settings.dump();
    } else {
      EXPECT_FALSE(settings.contains("test_scale")) << setting << ": " << settings.dump();
    }
    for (const nlohmann::json& peak : results["context"]["peaks"]) {
      if (peak["memory_space"] != "host") continue;
      EXPECT_EQ(testing::contains(peak["measured_by"].get<std::string>(), "quick calibration"),
                quick)
          << setting << ": " << peak.dump();
      if (quick) {
        EXPECT_EQ(peak["bytes"].get<std::uint64_t>(), 8ull << 20) << peak.dump();
      } else {
        EXPECT_GE(peak["bytes"].get<std::uint64_t>(), 64ull << 20) << setting << peak.dump();
      }
    }
  }
}

TEST(PeakPerPattern, TheHostRunRecordsBothPeaksAndUsesTheReadRateForReduce) {
  TempFolder folder;
  CommandResult r = testing::run_harness({"-p", "cpu_serial", "-w", "reduce,scan", "-s", "65536",
                                          "-r", "3", "--json", folder.file("r.json")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = testing::read_json(folder.file("r.json"));
  std::set<std::string> patterns;
  for (const nlohmann::json& peak : results["context"]["peaks"]) {
    if (peak["memory_space"] == "host") patterns.insert(peak["pattern"].get<std::string>());
  }
  EXPECT_EQ(patterns, (std::set<std::string>{"copy", "read"}));
  // Each host peak is the fastest of the loops it lists, and says which one that was.
  for (const nlohmann::json& peak : results["context"]["peaks"]) {
    if (peak["memory_space"] != "host") continue;
    ASSERT_TRUE(peak.contains("methods")) << peak.dump();
    double fastest = 0;
    std::string fastest_name;
    for (const nlohmann::json& method : peak["methods"]) {
      if (method["gbps"].get<double>() > fastest) {
        fastest = method["gbps"].get<double>();
        fastest_name = method["name"].get<std::string>();
      }
    }
    EXPECT_EQ(peak["gbps"].get<double>(), fastest) << peak.dump();
    EXPECT_TRUE(testing::contains(peak["measured_by"].get<std::string>(), fastest_name))
        << peak.dump();
#if defined(__x86_64__)
    EXPECT_EQ(peak["methods"].size(), peak["pattern"] == "read" ? 3u : 2u) << peak.dump();
#endif
  }
  for (const nlohmann::json& cell : results["results"]) {
    const std::string expected = cell["workload"] == "reduce" ? "read" : "copy";
    EXPECT_EQ(cell["peak_pattern"], expected) << cell["workload"];
    EXPECT_EQ(cell["traffic"]["pattern"], expected) << cell["workload"];
  }
  EXPECT_TRUE(results["context"]["host"].contains("frequency_scaling"));
}

// The calibration is most of a small run's start: a run calibrates the host peaks its host cells
// are held to and no other (docs/measurement.md, "Peaks per access pattern").
TEST(PeakPerPattern, ARunCalibratesOnlyTheHostPeaksItsHostCellsAreHeldTo) {
  TempFolder folder;
  const auto host_patterns = [&](const std::vector<std::string>& selection) {
    std::vector<std::string> args = selection;
    for (const char* arg : {"-r", "3", "-q", "--json"}) args.push_back(arg);
    args.push_back(folder.file("r.json"));
    CommandResult r = testing::run_harness(args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    nlohmann::json results = testing::read_json(folder.file("r.json"));
    std::set<std::string> patterns;
    for (const nlohmann::json& peak : results["context"]["peaks"]) {
      if (peak["memory_space"] == "host") patterns.insert(peak["pattern"].get<std::string>());
    }
    // The plugin's entry names the peaks it was held to, and only those.
    for (const nlohmann::json& plugin : results["context"]["plugins"]) {
      if (plugin["name"] != "cpu_serial") continue;
      EXPECT_EQ(plugin.contains("peak_gbps"), patterns.count("copy") == 1) << plugin.dump();
      EXPECT_EQ(plugin.contains("peak_read_gbps"), patterns.count("read") == 1) << plugin.dump();
    }
    return patterns;
  };
  using Patterns = std::set<std::string>;
  EXPECT_EQ(host_patterns({"-p", "cpu_serial", "-w", "reduce,dot", "-s", "4096"}),
            Patterns{"read"});
  EXPECT_EQ(host_patterns({"-p", "cpu_serial", "-w", "scan", "-s", "4096"}), Patterns{"copy"});
  EXPECT_EQ(host_patterns(
                {"-p", "cpu_serial", "-w", "reduce,scan", "-s", "4096", "--order", "sequential"}),
            (Patterns{"copy", "read"}));
  // Mandelbrot is measured in iterations, a device plugin against its own memory.
  EXPECT_EQ(host_patterns({"-p", "cpu_serial", "-w", "mandelbrot", "-s", "64x64"}), Patterns{});
  EXPECT_EQ(host_patterns({"--plugin-dir", testing::fake_plugin_dir("device"), "-p", "fake_device",
                           "-w", "reduce", "-s", "4096"}),
            Patterns{});
}

TEST(FrequencyScaling, AGovernorOtherThanPerformanceIsScalingAndWarned) {
  TempFolder folder;
  auto governor = [&](const std::string& cpu, const std::string& name) {
    std::filesystem::create_directories(folder.path() + "/" + cpu + "/cpufreq");
    std::ofstream(folder.path() + "/" + cpu + "/cpufreq/scaling_governor") << name << "\n";
  };
  governor("cpu0", "performance");
  governor("cpu1", "powersave");
  std::filesystem::create_directories(folder.path() + "/cpufreq");  // not a CPU
  FrequencyScaling scaling = read_frequency_scaling(folder.path());
  EXPECT_EQ(scaling.governors.size(), 2u);
  EXPECT_TRUE(scaling.scaling_on());
  std::ostringstream out;
  warn_about_frequency_scaling(out, scaling);
  EXPECT_TRUE(testing::contains(out.str(), "powersave on 1 CPUs")) << out.str();
  EXPECT_EQ(to_json(scaling)["scaling"], true);
}

TEST(FrequencyScaling, PerformanceEverywhereOrNoGovernorAtAllIsNotWarned) {
  TempFolder folder;
  std::filesystem::create_directories(folder.path() + "/cpu0/cpufreq");
  std::ofstream(folder.path() + "/cpu0/cpufreq/scaling_governor") << "performance\n";
  std::ostringstream out;
  warn_about_frequency_scaling(out, read_frequency_scaling(folder.path()));
  EXPECT_EQ(out.str(), "");
  FrequencyScaling none = read_frequency_scaling(folder.path() + "/missing");
  EXPECT_FALSE(none.known());
  EXPECT_TRUE(to_json(none)["scaling"].is_null());  // a VM without cpufreq: unknown, not "off"
}

TEST(SamplingRecord, TravelsFromTheWorkerAndIntoTheResultsFile) {
  CellResult cell;
  cell.workload = "reduce";
  cell.plugin = "cub";
  cell.variant = "library";
  SamplingRecord sampling;
  sampling.start = SampleStart::held;
  sampling.clock_samples = 9;
  sampling.clock_mean_mhz = 1975.5;
  sampling.clock_min_mhz = 1960;
  sampling.clock_window_min_ms = 0.02;
  sampling.default_clock_mhz = 1980;
  sampling.throttle_threshold = 0.75;
  sampling.dropped_throttled = 2;
  sampling.kept_throttled = 1;
  cell.sampling = sampling;
  cell.team = ExecutionContext{16, "spread", "cores: 16 places"};
  cell.peak_pattern = "read";
  CellResult back = cell_from_json(to_json(cell));
  ASSERT_TRUE(back.sampling);
  EXPECT_EQ(to_json(cell)["sampling"]["start"], "held");
  EXPECT_EQ(back.sampling->start, SampleStart::held);
  EXPECT_EQ(back.sampling->clock_samples, 9);
  EXPECT_DOUBLE_EQ(*back.sampling->clock_mean_mhz, 1975.5);
  EXPECT_DOUBLE_EQ(*back.sampling->clock_min_mhz, 1960);
  EXPECT_EQ(back.sampling->dropped_throttled, 2);
  EXPECT_EQ(back.sampling->kept_throttled, 1);
  ASSERT_TRUE(back.team);
  EXPECT_EQ(back.team->threads, 16u);
  EXPECT_EQ(back.team->binding, "spread");
  EXPECT_EQ(back.peak_pattern, "read");
}

TEST(SamplingRecord, AStartTextOfAnotherWordingIsKeptAsReadAndNamesNoKind) {
  CellResult cell;
  SamplingRecord sampling;
  sampling.unnamed_start =
      "not held: the kernel waits for the device from the host but is not flagged "
      "synchronizes_host";  // an older harness's wording
  cell.sampling = sampling;
  CellResult back = cell_from_json(to_json(cell));
  ASSERT_TRUE(back.sampling);
  EXPECT_FALSE(back.sampling->start.has_value());
  EXPECT_EQ(to_json(back)["sampling"]["start"], sampling.unnamed_start);
  back.sampling->start = SampleStart::host_waited;
  EXPECT_EQ(start_text(*back.sampling), name_in(kSampleStartTexts, SampleStart::host_waited));
}

}  // namespace
}  // namespace plugbench
