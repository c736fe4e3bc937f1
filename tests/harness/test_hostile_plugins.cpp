// test_hostile_plugins.cpp: plugins that attack the harness's statuses instead of merely failing
// (tests/fake_plugins/hostile_plugin.cpp), run by the real harness: a wrong answer stays failed, a
// forked child neither hides a crash nor outlives the run, output text does not make a segfault an
// oom, a broken timer or a kernel that skips the timed work is caught, forged replies are refused,
// stored references cannot be rewritten, and discovery survives libraries that hang or crash.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::kPlainSegfaults;
using plugbench::testing::read_json;
using plugbench::testing::read_text;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

// A harness that hangs fails its test instead of freezing the suite.
const std::string kAtMostAMinute = "timeout -s KILL 60 ";

std::string hostile_dir(const std::string& attack) {
  return fake_plugin_dir("hostile_" + attack);
}

// One small reduce problem, three samples, no warm-up; the plugin and its variants chosen.
std::vector<std::string> hostile_run(const std::string& attack, const std::string& plugins,
                                     const std::string& json_path,
                                     const std::string& size = "1000") {
  return {"--plugin-dir",
          hostile_dir(attack),
          "-p",
          plugins,
          "-w",
          "reduce",
          "-s",
          size,
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

const nlohmann::json* find_cell(const nlohmann::json& results, const std::string& plugin,
                                const std::string& variant) {
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["plugin"] == plugin && cell["variant"] == variant) return &cell;
  }
  return nullptr;
}

std::size_t count_cells(const nlohmann::json& results, const std::string& plugin,
                        const std::string& variant) {
  std::size_t count = 0;
  for (const nlohmann::json& cell : results["results"]) {
    count += cell["plugin"] == plugin && cell["variant"] == variant;
  }
  return count;
}

void expect_verified(const nlohmann::json* cell) {
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)["status"], "ok") << cell->dump();
  ASSERT_TRUE((*cell)["verification"].is_object()) << cell->dump();
  EXPECT_TRUE((*cell)["verification"]["passed"].get<bool>()) << cell->dump();
}

// Gone, or a zombie nobody reaps (its parent, the harness's worker, is gone too).
bool process_gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z';
}

bool gone_within(pid_t pid, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!process_gone(pid)) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

pid_t read_pid(const std::string& path) {
  return static_cast<pid_t>(std::atol(read_text(path).c_str()));
}

TEST(HostilePlugins, AWrongAnswerIsNotHiddenByALaterUnsupported) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r = run_harness(hostile_run("late_unsupported", "hostile_late_unsupported", path));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json* cell =
      find_cell(results, "hostile_late_unsupported", "wrong_then_unsupported");
  ASSERT_NE(cell, nullptr) << results.dump();
  EXPECT_EQ((*cell)["status"], "failed") << cell->dump();
  EXPECT_TRUE(contains((*cell)["message"], "wrong answer")) << cell->dump();
  EXPECT_FALSE((*cell)["verification"]["passed"].get<bool>()) << cell->dump();

  CommandResult check =
      run_harness({"--check-plugin",
                   hostile_dir("late_unsupported") + "/libplugbench_hostile_late_unsupported.so"});
  EXPECT_NE(check.exit_code, 0) << check.out << check.err;
  EXPECT_FALSE(contains(check.out, "all kernels passed")) << check.out;
}

TEST(HostilePlugins, AForkedChildNeitherDelaysTheCrashNorOutlivesTheRun) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  const std::string pid_file = folder.file("child.pid");
  // The honest cell alone first: what a run costs on this machine now, so that the bound below
  // follows from it (waiting for the child would add its 60 s).
  std::vector<std::string> honest_only = hostile_run("fork", "hostile_fork", folder.file("h.json"));
  honest_only.insert(honest_only.end(), {"-v", "honest"});
  auto started = std::chrono::steady_clock::now();
  ASSERT_EQ(run_harness(honest_only).exit_code, 0);
  const double honest_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  started = std::chrono::steady_clock::now();
  std::vector<std::string> arguments = hostile_run("fork", "hostile_fork", path);
  arguments.insert(arguments.end(), {"-v", "fork_then_segfault,honest"});
  CommandResult r = run_harness(arguments, kPlainSegfaults + "PLUGBENCH_HOSTILE_PID_FILE='" +
                                               pid_file + "' " + kAtMostAMinute);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  nlohmann::json results = read_json(path);
  const nlohmann::json* crashed = find_cell(results, "hostile_fork", "fork_then_segfault");
  ASSERT_NE(crashed, nullptr) << r.out << r.err;
  EXPECT_EQ((*crashed)["status"], "crashed") << crashed->dump();
  EXPECT_TRUE(contains((*crashed)["message"], "killed by signal 11")) << crashed->dump();
  expect_verified(find_cell(results, "hostile_fork", "honest"));
  // A crashed worker and a fresh one for the honest cell: about twice the honest run.
  EXPECT_LT(seconds, 2 * honest_s + 20)
      << "the crash waited for the child (which lives 60 s) to end; the honest run took "
      << honest_s << " s";
  const pid_t child = read_pid(pid_file);
  ASSERT_GT(child, 0);
  EXPECT_TRUE(gone_within(child, 2.0)) << "the plugin's child " << child << " outlived the run";
}

// The forking kernel hangs: SIGTERM or SIGINT to the harness ends its worker and the child too.
void expect_children_end_with_the_harness(int signal_number) {
  TempFolder folder;
  const std::string pid_file = folder.file("child.pid");
  const std::string marker = folder.file("hanging");
  const int harness = [&] {
    plugbench::testing::ScopedEnv pid_to("PLUGBENCH_HOSTILE_PID_FILE", pid_file);
    plugbench::testing::ScopedEnv marker_to("PLUGBENCH_HOSTILE_MARKER", marker);
    return plugbench::testing::start_harness({"--plugin-dir", hostile_dir("fork"), "-p",
                                              "hostile_fork", "-v", "fork_then_hang", "-w",
                                              "reduce", "-s", "1000", "-r", "3", "--warmup", "0",
                                              "--timeout", "0", "--json", folder.file("r.json")});
  }();
  for (int waited = 0; !std::filesystem::exists(marker) && waited < 600; ++waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(std::filesystem::exists(marker)) << "the hanging cell never started";
  const pid_t child = read_pid(pid_file);
  ASSERT_GT(child, 0);
  ::kill(harness, signal_number);
  EXPECT_EQ(plugbench::testing::wait_for_exit(harness), 5);
  EXPECT_TRUE(gone_within(child, 2.0)) << "the plugin's child " << child << " outlived the harness";
  if (!process_gone(child)) ::kill(child, SIGKILL);
}

TEST(HostilePlugins, ChildrenOfAPluginEndWithTheHarnessOnSigterm) {
  expect_children_end_with_the_harness(SIGTERM);
}

TEST(HostilePlugins, ChildrenOfAPluginEndWithTheHarnessOnSigint) {
  expect_children_end_with_the_harness(SIGINT);
}

TEST(HostilePlugins, PrintingBadAllocDoesNotMakeASegfaultAnOom) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r =
      run_harness(hostile_run("bad_alloc_text", "hostile_bad_alloc_text", path), kPlainSegfaults);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json* cell = find_cell(results, "hostile_bad_alloc_text", "says_bad_alloc");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)["status"], "crashed") << cell->dump();
  EXPECT_TRUE(contains((*cell)["message"], "killed by signal 11")) << cell->dump();
  expect_verified(find_cell(results, "hostile_bad_alloc_text", "honest"));
}

TEST(HostilePlugins, ATimerThatReportsNanInfinityNegativeOrZeroMakesTheCellAnError) {
  for (const std::string time : {"nan", "inf", "-1", "0"}) {
    SCOPED_TRACE("timer reports " + time + " ms");
    TempFolder folder;
    const std::string path = folder.file("r.json");
    CommandResult r = run_harness(hostile_run("timer", "hostile_timer", path),
                                  "PLUGBENCH_HOSTILE_TIME=" + time + " ");
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    nlohmann::json results = read_json(path);
    const nlohmann::json* cell = find_cell(results, "hostile_timer", "honest");
    ASSERT_NE(cell, nullptr);
    EXPECT_EQ((*cell)["status"], "error") << cell->dump();
    EXPECT_TRUE(contains((*cell)["message"], "timer")) << cell->dump();
  }
}

TEST(HostilePlugins, TheTimedCallsMustProduceTheAnswerAndAnImpossibleRateIsSuspect) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  // 128 MiB of input, more than any cache holds, flushed before every sample: the honest kernel
  // reads it from memory, one that only writes a remembered sum beats any memory by far.
  std::vector<std::string> arguments = hostile_run("lazy", "hostile_lazy", path, "33554432");
  std::replace(arguments.begin(), arguments.end(), std::string("warm"), std::string("cold"));
  // The verdict is against the memory's peak: the full calibration, not the tests' quick one (a
  // cache's rate, and a few milliseconds that a loaded machine can slow tenfold).
  CommandResult r = run_harness(arguments, "unset PLUGBENCH_CALIBRATION; ");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json* lazy = find_cell(results, "hostile_lazy", "works_once");
  ASSERT_NE(lazy, nullptr);
  EXPECT_EQ((*lazy)["status"], "failed") << lazy->dump();
  EXPECT_TRUE(contains((*lazy)["message"], "the timed calls did not produce the answer"))
      << lazy->dump();

  const nlohmann::json* remembered = find_cell(results, "hostile_lazy", "remembers_answer");
  expect_verified(remembered);
  ASSERT_TRUE((*remembered)["suspect"].is_string()) << remembered->dump();
  EXPECT_TRUE(contains((*remembered)["suspect"], "measured peak")) << remembered->dump();
  EXPECT_TRUE(contains(r.out, "SUSPECT")) << r.out;

  const nlohmann::json* honest = find_cell(results, "hostile_lazy", "honest");
  expect_verified(honest);
  EXPECT_TRUE((*honest)["suspect"].is_null()) << honest->dump();
}

TEST(HostilePlugins, AForgedReplyEndsItsWorkerAndLaterCellsAreFiledRightly) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r = run_harness(hostile_run("forger", "hostile_forger", path, "1000,1001"));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_EQ(count_cells(results, "hostile_forger", "forges_reply"), 2u)
      << results["results"].dump();
  EXPECT_EQ(count_cells(results, "hostile_forger", "honest"), 2u) << results["results"].dump();
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["variant"] == "forges_reply") {
      EXPECT_EQ(cell["status"], "crashed") << cell.dump();
      EXPECT_TRUE(contains(cell["message"], "did not match the request")) << cell.dump();
    } else {
      expect_verified(&cell);
    }
  }
}

TEST(HostilePlugins, AStoredReferenceCannotBeRewrittenByAnotherPlugin) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  const std::string log = folder.file("tamper.log");
  // cpu_serial generates the problem, hostile_tamper attacks it, openmp reads it after.
  CommandResult r = run_harness(hostile_run("tamper", "cpu_serial,hostile_tamper,openmp", path),
                                "PLUGBENCH_HOSTILE_TAMPER_LOG='" + log + "' ");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  for (const nlohmann::json& cell : results["results"]) expect_verified(&cell);
  const std::string attempts = read_text(log);
  EXPECT_FALSE(contains(attempts, "tampered")) << attempts;
  EXPECT_TRUE(contains(attempts, "refused")) << "the plugin found no stored problem to attack";
}

TEST(HostilePlugins, APluginCannotForgeTheSharedProblem) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  const std::string log = folder.file("forger.log");
  // The forger's worker is the first to need the problem; openmp reads the shared copy after.
  CommandResult r = run_harness(hostile_run("aaa_forger", "hostile_aaa_forger,openmp", path),
                                "PLUGBENCH_HOSTILE_FORGER_LOG='" + log + "' " + kAtMostAMinute);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << read_text(log);
  nlohmann::json results = read_json(path);
  ASSERT_NE(find_cell(results, "openmp", "parallel_for"), nullptr) << results.dump();
  for (const nlohmann::json& cell : results["results"]) expect_verified(&cell);
}

TEST(HostilePlugins, DiscoveryListsHangingCrashingAndFifoLibrariesAsBroken) {
  TempFolder folder;
  const std::string fifo = folder.file("libplugbench_fifo.so");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string prefix = kPlainSegfaults + "PLUGBENCH_DISCOVERY_TIMEOUT=2 " + kAtMostAMinute;
  const std::vector<std::string> folders = {"--plugin-dir", hostile_dir("constructor_hangs"),
                                            "--plugin-dir", hostile_dir("probe_segfaults"),
                                            "--plugin-dir", folder.path()};
  std::vector<std::string> list = folders;
  list.push_back("--list");
  CommandResult listed = run_harness(list, prefix);
  EXPECT_EQ(listed.exit_code, 0) << listed.out << listed.err;
  EXPECT_TRUE(contains(listed.out, "did not finish within 2 s (PLUGBENCH_DISCOVERY_TIMEOUT)"))
      << listed.out;
  EXPECT_TRUE(contains(listed.out, "ended the process that tried")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "not a regular file")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "cpu_serial")) << listed.out;

  std::vector<std::string> run = folders;
  const std::string path = folder.file("r.json");
  run.insert(run.end(), {"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3", "--warmup",
                         "0", "--json", path, "-q"});
  CommandResult ran = run_harness(run, prefix);
  EXPECT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["results"].size(), 1u);
  expect_verified(&results["results"][0]);
}

// Every attack at once, beside cpu_serial: one valid results file in which every good cell is
// verified (hostile_timer's timer breaks all of its cells; that is its attack).
TEST(HostilePlugins, AllAttacksTogetherLeaveEveryGoodCellVerifiedInOneValidFile) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  const std::string plugins =
      "cpu_serial,hostile_late_unsupported,hostile_fork,hostile_bad_alloc_text,hostile_lazy,"
      "hostile_forger,hostile_timer,hostile_tamper";
  std::vector<std::string> arguments = hostile_run("all", plugins, path);
  arguments.insert(arguments.end(), {"--timeout", "5"});
  CommandResult r = run_harness(arguments, kPlainSegfaults + kAtMostAMinute);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_TRUE(results["complete"].get<bool>());
  std::size_t good = 0;
  for (const nlohmann::json& cell : results["results"]) {
    const bool good_cell = cell["plugin"] == "cpu_serial" ||
                           (cell["variant"] == "honest" && cell["plugin"] != "hostile_timer");
    if (!good_cell) continue;
    ++good;
    expect_verified(&cell);
  }
  EXPECT_EQ(good, 7u) << results["results"].dump();  // cpu_serial's loop and six honest kernels
  EXPECT_EQ(results["results"].size(), 16u) << results["results"].dump();
  const std::string validate = std::string("python3 '") + PLUGBENCH_SOURCE_DIR +
                               "/tools/validate_results.py' '" + PLUGBENCH_SOURCE_DIR +
                               "/results/schema.json' '" + path + "' > /dev/null 2>&1";
  const int status = std::system(validate.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 77) {
    EXPECT_EQ(code, 0) << "the results file does not validate against the schema";
  }
}

}  // namespace
}  // namespace plugbench
