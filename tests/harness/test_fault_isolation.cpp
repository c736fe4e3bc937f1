// test_fault_isolation.cpp: plugins that crash, abort, hang, eat memory or fault on the GPU, run by
// the real harness beside good ones: the run completes, the good cells are ok and verified, each
// bad cell says what happened, and the exit code tells crashes from wrong answers.
#include "base/cpu_masks.hpp"
#include "load/plugin_loader.hpp"
#include "results/results_json.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <sched.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <string>
#include <thread>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::kUnderAddressSanitizer;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

using plugbench::testing::kPlainSegfaults;

std::vector<nlohmann::json> cells_of(const nlohmann::json& results, const std::string& plugin,
                                     const std::string& variant) {
  std::vector<nlohmann::json> cells;
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["plugin"] == plugin && cell["variant"] == variant) cells.push_back(cell);
  }
  return cells;
}

void expect_ok(const nlohmann::json& cell) {
  EXPECT_EQ(cell["status"], "ok") << cell.dump();
  ASSERT_FALSE(cell["verification"].is_null()) << cell.dump();
  EXPECT_TRUE(cell["verification"]["passed"].get<bool>()) << cell.dump();
}

// A worker sends each cell as it appears in the results file; the harness reads it back whole.
TEST(FaultIsolation, ACellSurvivesTheTripThroughJson) {
  CellResult cell;
  cell.workload = "mandelbrot";
  cell.plugin = "p";
  cell.variant = "v";
  cell.distribution = "full";
  cell.size_text = "64x32";
  cell.shape = {2048, 64, 32};
  cell.status = CellStatus::failed;
  cell.message = "wrong answer";
  cell.flags = PB_KERNEL_ALLOCATES | PB_KERNEL_OPT_IN;
  cell.memory_space = MemorySpace::device;
  cell.workspace_bytes = 12345;
  TimeStats stats{1.5, 1.625, 1.25, 2.0, 0.1, 0.0615, 3, 1, {1.25, 1.5, 2.0}};
  cell.kernel = stats;
  cell.end_to_end = stats;
  cell.transfers.push_back({"pinned", stats, stats, stats});
  cell.traffic = Traffic{0, 8192, 99999, "iterations"};
  cell.verification = Verification{false, "pixels", "differing pixels", 7, 2, "first at (3, 4)"};
  cell.gbps = 12.5;
  cell.speedup = 0.5;
  cell.baseline = "cpu_serial/loop";
  nlohmann::json sent = to_json(cell);
  nlohmann::json received = to_json(cell_from_json(nlohmann::json::parse(sent.dump())));
  EXPECT_EQ(received, sent);

  CellResult plain;
  plain.traffic = Traffic{4000, 8, 0, ""};
  plain.verification = Verification{true, "sum", "absolute difference", NAN, 0, ""};
  CellResult back = cell_from_json(to_json(plain));
  EXPECT_TRUE(back.traffic->work_unit.empty()) << "elements: GB/s, not a work rate";
  EXPECT_TRUE(std::isnan(back.verification->error));
  EXPECT_FALSE(back.kernel.has_value());
}

// A small, fast matrix: reduce at two sizes, three samples, no warm-up.
std::vector<std::string> quick_run(const std::string& fake, const std::string& plugins,
                                   const std::string& json_path) {
  return {"--plugin-dir",
          fake_plugin_dir(fake),
          "-p",
          plugins,
          "-w",
          "reduce",
          "-s",
          "1000,1001",
          "-r",
          "3",
          "--warmup",
          "0",
          "--cache",
          "warm",
          "--json",
          json_path,
          "-q"};
}

// Every good cell ok and verified; every cell of fake_loop has `status` and `reason` in its
// message.
void expect_faulty_and_good(const nlohmann::json& results, const std::string& plugin,
                            const std::string& status, const std::string& reason) {
  std::vector<nlohmann::json> bad = cells_of(results, plugin, "fake_loop");
  ASSERT_EQ(bad.size(), 2u) << results["results"].dump(1);
  for (const nlohmann::json& cell : bad) {
    EXPECT_EQ(cell["status"], status) << cell.dump();
    EXPECT_TRUE(contains(cell["message"].get<std::string>(), reason)) << cell["message"];
    EXPECT_TRUE(cell["time"]["kernel"].is_null());
  }
  // The plugin's next cell runs in a fresh worker, and so does the whole of cpu_serial.
  for (const nlohmann::json& cell : cells_of(results, plugin, "good_loop")) expect_ok(cell);
  EXPECT_EQ(cells_of(results, plugin, "good_loop").size(), 2u);
  for (const nlohmann::json& cell : cells_of(results, "cpu_serial", "loop")) expect_ok(cell);
  EXPECT_EQ(cells_of(results, "cpu_serial", "loop").size(), 2u);
  EXPECT_TRUE(results["complete"].get<bool>());
}

TEST(FaultIsolation, ASegfaultingKernelCostsItsCellAlone) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r =
      run_harness(quick_run("segfault", "cpu_serial,fake_segfault", path), kPlainSegfaults);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "2 crashed, 0 timed out")) << r.out;
  nlohmann::json results = read_json(path);
  expect_faulty_and_good(results, "fake_segfault", "crashed",
                         "the worker process died in this cell: killed by signal 11 "
                         "(Segmentation fault)");
  EXPECT_EQ(results["context"]["settings"]["isolation"], "process");
}

TEST(FaultIsolation, AnAbortIsACrashThatQuotesTheLastWords) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r = run_harness(quick_run("abort", "cpu_serial,fake_abort", path));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  expect_faulty_and_good(results, "fake_abort", "crashed", "killed by signal 6 (Aborted)");
  std::string message = cells_of(results, "fake_abort", "fake_loop")[0]["message"];
  EXPECT_TRUE(contains(message, "its last output: fake plugin: an assertion failed")) << message;
  // Kept with its cell (and shown under its table), not passed on to stderr.
  const nlohmann::json output = cells_of(results, "fake_abort", "fake_loop")[0]["output"];
  EXPECT_EQ(output["first_lines"][0], "fake plugin: an assertion failed, calling abort()")
      << output.dump();
  EXPECT_TRUE(contains(r.out, "  fake_abort/fake_loop> fake plugin: an assertion failed")) << r.out;
  EXPECT_FALSE(contains(r.err, "fake plugin: an assertion failed")) << r.err;
}

// Seconds that `run` takes.
template <class Run>
double seconds_of(Run&& run) {
  const auto started = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// "2026-11-30T17:02:03Z" as seconds since the epoch.
std::time_t utc_seconds(const std::string& text) {
  std::tm fields{};
  std::istringstream in(text);
  in >> std::get_time(&fields, "%Y-%m-%dT%H:%M:%SZ");
  EXPECT_FALSE(in.fail()) << text;
  return timegm(&fields);
}

TEST(FaultIsolation, AHangTimesOutAndADeafOneIsKilled) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  // Warm caches: the good cell must finish well inside the timeout even on a loaded machine under
  // AddressSanitizer, with no flush in its samples.
  std::vector<std::string> arguments = {"--plugin-dir",
                                        fake_plugin_dir("hang"),
                                        "-p",
                                        "fake_hang",
                                        "-w",
                                        "reduce",
                                        "-s",
                                        "1000",
                                        "-r",
                                        "3",
                                        "--warmup",
                                        "0",
                                        "--cache",
                                        "warm",
                                        "--json",
                                        path,
                                        "-q"};
  // The good cell alone first: what a start, the calibration and a fresh worker cost on this
  // machine now. The timeout and the bound on the whole run follow from it, not from a guess.
  std::vector<std::string> good_only = arguments;
  good_only.insert(good_only.end(), {"-v", "good_loop"});
  CommandResult good;
  const double good_s = seconds_of([&] { good = run_harness(good_only); });
  ASSERT_EQ(good.exit_code, 0) << good.out << good.err;
  const int timeout_s = std::max(3, static_cast<int>(std::ceil(2 * good_s)));
  arguments.insert(arguments.end(), {"--timeout", std::to_string(timeout_s)});
  CommandResult r;
  const std::time_t run_began = std::time(nullptr);
  const double seconds = seconds_of([&] { r = run_harness(arguments); });
  const std::time_t run_ended = std::time(nullptr);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  // Two timeouts, the deaf worker's 2 s of grace before SIGKILL, and a fresh worker after each:
  // had the harness waited for a hanging cell, the run would never end.
  EXPECT_LT(seconds, 3 * good_s + 2 * timeout_s + 2 + 2)
      << "the timeouts must not wait for the cells (the good cell's run took " << good_s << " s)";
  EXPECT_TRUE(contains(r.out, "0 crashed, 2 timed out")) << r.out;
  nlohmann::json results = read_json(path);
  // The file's time is when the run began, not when it ended: the timeouts alone took seconds.
  // Its start may take as long as the good cell's whole run did (a GPU machine's start under a
  // parallel test suite took 3 s), never the timeouts' seconds as well.
  const std::time_t stamped = utc_seconds(results["context"]["time"].get<std::string>());
  EXPECT_LE(stamped, run_began + std::max(2, static_cast<int>(std::ceil(good_s))))
      << results["context"]["time"] << " (the good cell's run took " << good_s << " s)";
  EXPECT_LT(stamped, run_ended - 2) << results["context"]["time"];
  nlohmann::json hang = cells_of(results, "fake_hang", "fake_loop").at(0);
  EXPECT_EQ(hang["status"], "timeout");
  EXPECT_EQ(hang["message"], "no result within the --timeout of " + std::to_string(timeout_s) +
                                 " s in this cell; the worker was stopped with SIGTERM");
  nlohmann::json deaf = cells_of(results, "fake_hang", "ignores_sigterm").at(0);
  EXPECT_EQ(deaf["status"], "timeout");
  EXPECT_TRUE(contains(deaf["message"], "SIGKILL after it ignored SIGTERM for 2 s")) << deaf;
  expect_ok(cells_of(results, "fake_hang", "good_loop").at(0));
}

TEST(FaultIsolation, RunawayHostAllocationIsOutOfMemoryNotAHang) {
  if (kUnderAddressSanitizer) {
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space for its shadow memory, "
                    "so the ulimit -v cap this test needs cannot be set; the plain build runs it";
  }
  TempFolder folder;
  std::string path = folder.file("r.json");
  // The address space of the harness and its workers is capped, so the machine does not suffer.
  CommandResult r = run_harness(quick_run("memory_hog", "cpu_serial,fake_memory_hog", path),
                                "ulimit -v 4000000; ");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  expect_faulty_and_good(results, "fake_memory_hog", "oom", "out of host memory (std::bad_alloc)");
}

TEST(FaultIsolation, RestartsAreCappedPerPlugin) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("segfault"), "-p", "cpu_serial,fake_segfault",
                   "-w", "reduce", "-s", "1000,1001,1002", "-r", "3", "--warmup", "0",
                   "--max-restarts", "1", "--json", path, "-q"},
                  kPlainSegfaults);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  std::vector<nlohmann::json> bad = cells_of(results, "fake_segfault", "fake_loop");
  std::vector<nlohmann::json> good = cells_of(results, "fake_segfault", "good_loop");
  ASSERT_EQ(bad.size(), 3u);
  ASSERT_EQ(good.size(), 3u);
  // Crash 1, restart 1, good; crash 2: over the cap, nothing more of this plugin runs.
  EXPECT_TRUE(contains(bad[0]["message"], "signal 11")) << bad[0];
  expect_ok(good[0]);
  EXPECT_TRUE(contains(bad[1]["message"], "signal 11")) << bad[1];
  // The cells after the cap were not run: skipped, with the reason, not counted as crashes.
  const std::string not_run =
      "the worker of fake_segfault crashed or timed out 2 times (restarted 1 times, the "
      "--max-restarts limit): its remaining cells are not run";
  for (const nlohmann::json& cell : {good[1], bad[2], good[2]}) {
    EXPECT_EQ(cell["status"], "skipped");
    EXPECT_EQ(cell["message"], not_run);
  }
  for (const nlohmann::json& cell : cells_of(results, "cpu_serial", "loop")) expect_ok(cell);
  EXPECT_TRUE(contains(r.out, " 2 crashed, 0 timed out, 3 skipped after --max-restarts, "))
      << r.out;
  EXPECT_TRUE(contains(r.out, "skipped: the worker of fake_segfault crashed")) << r.out;
}

TEST(FaultIsolation, BrokenFilesAndAWrongAnswerAloneExitOne) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r = run_harness({"--plugin-dir", fake_plugin_dir("wrong_answer"),
                                 "--plugin-dir", fake_plugin_dir("not_a_library"),
                                 "--plugin-dir", fake_plugin_dir("wrong_major"),
                                 "--plugin-dir", fake_plugin_dir("no_entry"),
                                 "--plugin-dir", fake_plugin_dir("good"),
                                 "-p",           "cpu_serial,fake_wrong,fake_good",
                                 "-w",           "reduce",
                                 "-s",           "1000",
                                 "-r",           "3",
                                 "--warmup",     "0",
                                 "--json",       path});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_EQ(cells_of(results, "fake_wrong", "fake_loop").at(0)["status"], "failed");
  expect_ok(cells_of(results, "fake_good", "fake_loop").at(0));
  expect_ok(cells_of(results, "cpu_serial", "loop").at(0));
  int broken = 0;
  for (const nlohmann::json& plugin : results["context"]["plugins"]) {
    broken += plugin["status"] == "broken";
  }
  EXPECT_EQ(broken, 3);
}

TEST(FaultIsolation, InProcessModeRunsTheSameCells) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  std::vector<std::string> arguments = quick_run("good", "cpu_serial,fake_good", path);
  arguments.insert(arguments.end(), {"--isolation", "none"});
  CommandResult r = run_harness(arguments);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_EQ(results["results"].size(), 4u);
  for (const nlohmann::json& cell : results["results"]) expect_ok(cell);
  EXPECT_EQ(results["context"]["settings"]["isolation"], "none");

  CommandResult unknown = run_harness({"--isolation", "thread", "--dry-run"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "--isolation 'thread' is not one of: process, none"));
}

// With OMP_PROC_BIND set, libgomp pins the harness's first thread to one core; a worker started
// from it must not inherit that one core, or an OpenMP plugin runs all its threads there.
TEST(FaultIsolation, WorkersMayRunOnEveryCpuOfTheHarnessUnderOmpProcBind) {
  // The test's own CPUs as a user's shell has them: where OMP_PROC_BIND or OMP_PLACES was set
  // when the tests started (the GPU machine's batch script), libgomp pinned this thread too.
  const ThreadOnAllPlaces as_a_shell;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  const int cpus = CPU_COUNT(&allowed);
  if (cpus < 2) {
    GTEST_SKIP() << "needs at least 2 CPUs to tell one core from all; this test has " << cpus;
  }
  TempFolder folder;
  const std::string report = folder.file("cpus.txt");
  const std::string path = folder.file("r.json");
  CommandResult r = run_harness(quick_run("good", "fake_good", path),
                                "export OMP_PROC_BIND=spread OMP_PLACES=cores "
                                "PLUGBENCH_FAKE_CPUS_FILE='" +
                                    report + "'; ");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_TRUE(std::filesystem::exists(report)) << "the fake kernel never ran";
  EXPECT_EQ(std::stoi(plugbench::testing::read_text(report)), cpus);

  // The results say so too, and `harness show` prints it: a confined worker would be visible.
  nlohmann::json results = read_json(path);
  bool recorded = false;
  for (const nlohmann::json& plugin : results["context"]["plugins"]) {
    if (plugin["name"] != "fake_good") continue;
    recorded = true;
    EXPECT_EQ(plugin["process"]["cpus"], cpus) << plugin.dump();
    EXPECT_GE(plugin["process"]["openmp_threads"].get<int>(), 1) << plugin.dump();
  }
  EXPECT_TRUE(recorded) << results["context"]["plugins"].dump();
  CommandResult shown = run_harness({"show", path});
  EXPECT_TRUE(contains(shown.out, "fake_good " + std::to_string(cpus) + " CPUs")) << shown.out;
}

TEST(FaultIsolation, AnInterruptStopsAHangingWorkerAtOnce) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  const std::string marker = folder.file("hanging");
  // What a whole run of the good cell costs on this machine now: stopping must cost less.
  CommandResult good;
  const double good_s = seconds_of([&] {
    good = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-v", "loop", "-r", "3",
                        "--warmup", "0", "--json", folder.file("good.json"), "-q"});
  });
  ASSERT_EQ(good.exit_code, 0) << good.out << good.err;
  // One cell after another, the good cell is finished before the hang and written; in rounds
  // it is still open (no cell of a problem finishes before its last round) and goes with it.
  for (const auto& [order, written] : {std::pair{"sequential", 1u}, std::pair{"interleaved", 0u}}) {
    SCOPED_TRACE(order);
    std::filesystem::remove(marker);
    const int pid = [&] {
      plugbench::testing::ScopedEnv marker_to("PLUGBENCH_FAKE_HANG_MARKER", marker);
      return plugbench::testing::start_harness({"--plugin-dir", fake_plugin_dir("hang"),
                                                "-p",           "cpu_serial,fake_hang",
                                                "-w",           "reduce",
                                                "-s",           "1000",
                                                "-v",           "loop,fake_loop",
                                                "-r",           "3",
                                                "--warmup",     "0",
                                                "--timeout",    "0",
                                                "--order",      order,
                                                "--json",       path});
    }();
    // The hanging cell is in flight once the fake plugin has made the marker (on a loaded
    // machine that can take a while: no fixed sleep; ctest's timeout bounds the wait).
    while (!std::filesystem::exists(marker) && plugbench::testing::still_running(pid)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(std::filesystem::exists(marker)) << "the hanging cell never started";
    auto signalled = std::chrono::steady_clock::now();
    kill(pid, SIGINT);
    EXPECT_EQ(plugbench::testing::wait_for_exit(pid), 5);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count(),
              std::max(5.0, good_s))
        << "a whole run of the good cell took " << good_s << " s";
    nlohmann::json results = read_json(path);
    EXPECT_FALSE(results["complete"].get<bool>());
    ASSERT_EQ(results["results"].size(), written);  // the hanging cell in flight is dropped
    if (written > 0) expect_ok(results["results"][0]);
  }
}

// Runs where CUDA was built and a GPU is present (the GPU machine); skipped elsewhere, with why.
TEST(FaultIsolation, AnIllegalAddressOnTheGpuCostsItsCellAlone) {
  std::string folder = fake_plugin_dir("cuda_illegal_address");
  std::string library = folder + "/libplugbench_cuda_illegal_address.so";
  if (!std::filesystem::exists(library)) {
    GTEST_SKIP() << "built without CUDA: " << library << " does not exist";
  }
  PluginRecord plugin = load_plugin(library, "test");
  if (plugin.state != PluginState::available) {
    GTEST_SKIP() << plugin.name << " is " << to_string(plugin.state) << ": " << plugin.reason;
  }
  TempFolder temporary;
  std::string path = temporary.file("r.json");
  CommandResult r =
      run_harness({"--plugin-dir", folder, "-p", "cpu_serial,cuda_illegal_address", "-w", "reduce",
                   "-s", "1000,1001", "-r", "3", "--warmup", "0", "--json", path, "-q"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  std::vector<nlohmann::json> bad = cells_of(results, "cuda_illegal_address", "illegal_address");
  ASSERT_EQ(bad.size(), 2u);
  for (const nlohmann::json& cell : bad) {
    EXPECT_TRUE(cell["status"] == "error" || cell["status"] == "crashed") << cell;
    EXPECT_TRUE(contains(cell["message"], "cudaErrorIllegalAddress") ||
                contains(cell["message"], "illegal memory access"))
        << cell["message"];
  }
  // After a sticky error the plugin's next cell gets a fresh worker, and a fresh CUDA context.
  for (const nlohmann::json& cell : cells_of(results, "cuda_illegal_address", "good_atomic")) {
    expect_ok(cell);
  }
  for (const nlohmann::json& cell : cells_of(results, "cpu_serial", "loop")) expect_ok(cell);
}

}  // namespace
}  // namespace plugbench
