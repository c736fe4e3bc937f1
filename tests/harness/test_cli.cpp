// test_cli.cpp: the harness as a user runs it: listings, usage errors with the valid choices,
// results files, and the exit codes for verification failures and plugin errors.
#include "results/results_json.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

const nlohmann::json* find_cell(const nlohmann::json& results, const std::string& plugin) {
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["plugin"] == plugin) return &cell;
  }
  return nullptr;
}

TEST(Cli, HelpDocumentsTheExitCodes) {
  CommandResult r = run_harness({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "--plugins"));
  EXPECT_TRUE(contains(r.out, "exit codes: 0 every cell ok"));
}

// Whether --list has a line "  NAME", two or more spaces, then STATUS.
bool listed_as(const std::string& list, const std::string& name, const std::string& status) {
  const std::string start = "\n  " + name + "  ";
  for (auto at = list.find(start); at != std::string::npos; at = list.find(start, at + 1)) {
    const auto status_at = list.find_first_not_of(' ', at + start.size());
    if (status_at != std::string::npos && list.compare(status_at, status.size(), status) == 0) {
      return true;
    }
  }
  return false;
}

TEST(Cli, ListShowsPluginsKernelsAndWorkloads) {
  CommandResult r = run_harness({"--list", "--plugin-dir", fake_plugin_dir("not_a_library")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The name column is as wide as the longest name and two spaces.
  EXPECT_TRUE(listed_as(r.out, "cpu_serial", "available")) << r.out;
  EXPECT_TRUE(listed_as(r.out, "openmp", "available")) << r.out;
  EXPECT_TRUE(contains(r.out, "float_accumulator (opt-in)"));
  EXPECT_TRUE(contains(r.out, "libplugbench_text.so"));
  EXPECT_TRUE(contains(r.out, "broken      cannot be loaded as a shared library"));
  for (const char* workload :
       {"reduce", "dot", "histogram", "scan", "compact", "sort", "mandelbrot"}) {
    EXPECT_TRUE(contains(r.out, std::string("  ") + workload)) << workload;
  }
  EXPECT_TRUE(contains(r.out, "photo (default), flat"));
}

TEST(Cli, UnknownNamesAreUsageErrorsThatListTheChoices) {
  CommandResult plugin = run_harness({"--plugins", "nosuch", "--dry-run"});
  EXPECT_EQ(plugin.exit_code, 2);
  EXPECT_TRUE(contains(plugin.err, "unknown plugin 'nosuch'")) << plugin.err;
  EXPECT_TRUE(contains(plugin.err, "cpu_serial (available)")) << plugin.err;

  CommandResult workload = run_harness({"--workload", "fft", "--dry-run"});
  EXPECT_EQ(workload.exit_code, 2);
  EXPECT_TRUE(contains(workload.err, "unknown workload 'fft'; valid: reduce, dot, histogram"))
      << workload.err;

  CommandResult distribution = run_harness({"-w", "histogram", "-d", "noise", "--dry-run"});
  EXPECT_EQ(distribution.exit_code, 2);
  EXPECT_TRUE(contains(distribution.err, "histogram: photo/flat")) << distribution.err;

  CommandResult variant = run_harness({"-w", "reduce", "-v", "warp_magic", "--dry-run"});
  EXPECT_EQ(variant.exit_code, 2);
  EXPECT_TRUE(contains(variant.err, "unknown variant 'warp_magic'")) << variant.err;
  EXPECT_TRUE(contains(variant.err, "parallel_for")) << variant.err;

  CommandResult baseline = run_harness({"--baseline", "nosuch", "--dry-run"});
  EXPECT_EQ(baseline.exit_code, 2);
  EXPECT_TRUE(contains(baseline.err, "--baseline 'nosuch'")) << baseline.err;

  CommandResult option = run_harness({"--frobnicate"});
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_TRUE(contains(option.err, "frobnicate")) << option.err;

  // A mistyped subcommand is named as one, with the commands there are (not the lists' hint).
  CommandResult command = run_harness({"shwo", "a.json"});
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_TRUE(contains(command.err, "unknown command 'shwo'")) << command.err;
  EXPECT_TRUE(contains(command.err, "compare, show, export")) << command.err;
  CommandResult list_item = run_harness({"-p", "cpu_serial", "openmp"});
  EXPECT_EQ(list_item.exit_code, 2);
  EXPECT_TRUE(contains(list_item.err, "not -p cpu_serial openmp")) << list_item.err;
}

TEST(Cli, MalformedSizesAreUsageErrors) {
  for (const char* sizes : {"2^x", "-1", "2^64", "1M,,2M", "12abc"}) {
    CommandResult r = run_harness({"--sizes", sizes, "--dry-run"});
    EXPECT_EQ(r.exit_code, 2) << sizes;
    EXPECT_TRUE(contains(r.err, "--sizes: bad size")) << r.err;
  }
}

TEST(Cli, WorkloadsNamedInSizesGetTheirOwnTheRestTheListWithoutAName) {
  CommandResult r =
      run_harness({"--dry-run", "-p", "cpu_serial", "-w", "reduce,histogram,sort,scan", "-s",
                   "2^12", "-s", "histogram=64x32", "-s", "sort,scan=2^10,2^11"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "reduce  n = 4096 (2^12)")) << r.out;
  EXPECT_TRUE(contains(r.out, "histogram  n = 64x32 (2048)")) << r.out;
  EXPECT_FALSE(contains(r.out, "histogram  n = 4096")) << r.out;
  EXPECT_TRUE(contains(r.out, "sort  n = 1024 (2^10)")) << r.out;
  EXPECT_TRUE(contains(r.out, "scan  n = 2048 (2^11)")) << r.out;
  EXPECT_FALSE(contains(r.out, "sort  n = 4096")) << r.out;

  // Without a list for the rest, the workloads not named keep their own sizes; an empty -s (an
  // empty variable in a script) is no list.
  CommandResult defaults = run_harness(
      {"--dry-run", "-p", "cpu_serial", "-w", "reduce,sort", "-s", "", "-s", "sort=2^10"});
  EXPECT_EQ(defaults.exit_code, 0) << defaults.err;
  EXPECT_TRUE(contains(defaults.out, "reduce  n = 16777216 (2^24)")) << defaults.out;
  EXPECT_TRUE(contains(defaults.out, "sort  n = 1024 (2^10)")) << defaults.out;
}

TEST(Cli, SizesForAnUnknownUnselectedOrTwiceNamedWorkloadAreUsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-s", "sotr=2^10"}, "--sizes: unknown workload 'sotr' in 'sotr=2^10'; valid: reduce"},
      {{"-w", "reduce", "-s", "sort=2^10"}, "sizes for sort, which this run does not include"},
      {{"-s", "sort=2^10", "-s", "sort,dot=2^12"}, "workload 'sort' is given sizes twice"},
      {{"-s", "2^10", "-s", "2^12"}, "two lists without a workload name ('2^12')"},
      {{"-s", "sort=2^x"}, "--sizes: bad size"},
      {{"-s", "=2^10"}, "'=2^10' names no workload before '='"},
      {{"-w", "sort,scan", "-s", "2^12", "-s", "sort,scan=2^10"},
       "the list without a workload name ('2^12') is for no workload"},
  };
  for (const auto& [arguments, message] : cases) {
    std::vector<std::string> command = arguments;
    command.push_back("--dry-run");
    CommandResult r = run_harness(command);
    EXPECT_EQ(r.exit_code, 2) << arguments.back();
    EXPECT_TRUE(contains(r.err, message)) << r.err;
  }
}

TEST(Cli, AMissingPluginFolderIsAUsageError) {
  CommandResult r = run_harness({"--plugin-dir", "/nonexistent/plugins", "--list"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "plugin folder '/nonexistent/plugins'")) << r.err;
}

TEST(Cli, DryRunPrintsTheMatrixAndRunsNothing) {
  TempFolder folder;
  CommandResult r =
      run_harness({"--dry-run", "-w", "scan", "-s", "2^10..2^12", "-p", "cpu_serial,openmp", "-v",
                   "loop,two_pass", "--json", folder.file("r.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "matrix: 3 problems, 6 cells to run")) << r.out;
  EXPECT_TRUE(contains(r.out, "two_pass"));
  EXPECT_FALSE(std::filesystem::exists(folder.file("r.json")));
}

TEST(Cli, VariantsCanBeQualifiedByPluginAndLeftOut) {
  // Sort has lsd_radix in both CPU plugins, std_sort in cpu_serial alone, lsd_radix_combining and
  // adaptive in openmp alone.
  std::vector<std::string> base = {"--dry-run",         "-w", "sort", "-s", "2^10", "-p",
                                   "cpu_serial,openmp", "-v"};
  auto with = [&](const std::string& variants) {
    std::vector<std::string> args = base;
    args.push_back(variants);
    return run_harness(args);
  };
  CommandResult without_std_sort = with("all,-cpu_serial/std_sort");
  EXPECT_EQ(without_std_sort.exit_code, 0) << without_std_sort.err;
  EXPECT_TRUE(contains(without_std_sort.out, "4 cells to run")) << without_std_sort.out;
  EXPECT_FALSE(contains(without_std_sort.out, "std_sort")) << without_std_sort.out;

  CommandResult only_serial_radix = with("cpu_serial/lsd_radix");
  EXPECT_EQ(only_serial_radix.exit_code, 0) << only_serial_radix.err;
  EXPECT_TRUE(contains(only_serial_radix.out, "1 cells to run")) << only_serial_radix.out;

  CommandResult exclusions_only = with("-lsd_radix");
  EXPECT_EQ(exclusions_only.exit_code, 0) << exclusions_only.err;
  EXPECT_TRUE(contains(exclusions_only.out, "3 cells to run")) << exclusions_only.out;
  EXPECT_FALSE(contains(exclusions_only.out, "lsd_radix\n")) << exclusions_only.out;

  CommandResult unknown = with("all,-openmp/std_sort");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown variant 'openmp/std_sort'")) << unknown.err;
  EXPECT_TRUE(contains(unknown.err, "cpu_serial/std_sort")) << unknown.err;
}

TEST(Cli, ARunVerifiesEveryCellAndWritesTheResults) {
  TempFolder folder;
  std::string path = folder.file("results.json");
  CommandResult r = run_harness({"--plugins", "cpu_serial,openmp", "--workload", "all", "--sizes",
                                 "1009", "--repetitions", "3", "--json", path, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "verified"));
  nlohmann::json results = read_json(path);
  EXPECT_EQ(results["schema_version"], kSchemaVersion);
  EXPECT_TRUE(results["complete"].get<bool>());
  EXPECT_EQ(results["context"]["host"]["logical_cores"].get<int>() > 0, true);
  EXPECT_FALSE(results["context"]["peaks"].empty());
  std::set<std::string> workloads;
  for (const nlohmann::json& cell : results["results"]) {
    workloads.insert(cell["workload"].get<std::string>());
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    EXPECT_TRUE(cell["verification"]["passed"].get<bool>()) << cell.dump();
    EXPECT_EQ(cell["time"]["kernel"]["repetitions"], 3);
    EXPECT_FALSE(cell["speedup"].is_null()) << cell.dump();
  }
  EXPECT_EQ(workloads.size(), 7u);
}

// One repetition has no spread: its cv is shown as missing, never as a steady 0.0 %, in the run's
// table and in show's; two repetitions have one.
TEST(Cli, OneRepetitionShowsNoCv) {
  TempFolder folder;
  const std::string path = folder.file("one.json");
  CommandResult r = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "4096", "-r", "1",
                                 "--json", path, "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex row("\n([^\n]*,)?reduce,[^\n]*cpu_serial,loop,([^,]*),([^,]*),");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(r.out, match, row)) << r.out;
  EXPECT_EQ(match[3].str(), "") << match[0];
  CommandResult shown = run_harness({"show", path, "--format", "csv"});
  ASSERT_TRUE(std::regex_search(shown.out, match, row)) << shown.out;
  EXPECT_EQ(match[3].str(), "") << match[0];
  CommandResult two = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "4096", "-r", "2",
                                   "--no-json", "--format", "csv"});
  ASSERT_TRUE(std::regex_search(two.out, match, row)) << two.out;
  EXPECT_TRUE(std::regex_match(match[3].str(), std::regex("[0-9]+\\.[0-9]%"))) << match[0];
}

TEST(Cli, ABaselineVariantIsWhatEveryCellsSpeedupIsOver) {
  TempFolder folder;
  const std::string path = folder.file("results.json");
  CommandResult r =
      run_harness({"-p", "cpu_serial,openmp", "-w", "sort", "-d", "uniform", "-s", "4096", "-r",
                   "3", "--baseline", "cpu_serial/std_sort", "--json", path, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json results = read_json(path);
  EXPECT_EQ(results["context"]["settings"]["baseline"], "cpu_serial/std_sort");
  std::size_t cells = 0;
  for (const nlohmann::json& cell : results["results"]) {
    ++cells;
    EXPECT_EQ(cell["baseline"], "cpu_serial/std_sort") << cell.dump();
    // The baseline's own cell is 1x itself; the others are its time over theirs.
    const std::string name =
        cell["plugin"].get<std::string>() + "/" + cell["variant"].get<std::string>();
    const double speedup = cell["speedup"].get<double>();
    if (name == "cpu_serial/std_sort") {
      EXPECT_DOUBLE_EQ(speedup, 1.0);
    }
  }
  EXPECT_GE(cells, 3u);  // cpu_serial's two sorts and openmp's
}

TEST(Cli, ABaselineVariantNotInTheRunIsAUsageErrorThatSaysWhy) {
  const auto usage_error = [](const std::vector<std::string>& args, const std::string& why) {
    CommandResult r = run_harness(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, why)) << r.err;
  };
  usage_error({"-p", "cpu_serial", "-w", "sort", "--baseline", "cpu_serial/nosuch", "--dry-run"},
              "--baseline 'cpu_serial/nosuch' is not a cell of this run: cpu_serial has no "
              "variant nosuch for the workloads of this run");
  usage_error(
      {"-p", "cpu_serial", "-w", "dot", "--baseline", "cpu_serial/float_accumulator", "--dry-run"},
      "it is opt-in: name it in --variants");
  usage_error({"-p", "cpu_serial", "-w", "sort", "-v", "all,-cpu_serial/std_sort", "--baseline",
               "cpu_serial/std_sort", "--dry-run"},
              "--variants leaves it out: add it there");
  usage_error({"-p", "cpu_serial", "-w", "sort", "--baseline", "openmp/lsd_radix", "--dry-run"},
              "add openmp to --plugins");
  usage_error({"--plugin-dir", fake_plugin_dir("unavailable"), "-w", "reduce", "--baseline",
               "fake_unavailable/loop", "--dry-run"},
              "fake_unavailable cannot run here (fake device is switched off)");
  usage_error({"-w", "sort", "--baseline", "nosuch/loop", "--dry-run"},
              "nosuch is not a plugin that was found");
  for (const char* malformed : {"/loop", "cpu_serial/", "cpu_serial/loop/x", ""}) {
    usage_error({"-w", "sort", "--baseline", malformed, "--dry-run"},
                "name a plugin (cpu_serial) or one variant of one");
  }
  // Named with --variants, the opt-in baseline is planned.
  CommandResult named = run_harness({"-p", "cpu_serial", "-w", "dot", "-v", "all,float_accumulator",
                                     "--baseline", "cpu_serial/float_accumulator", "--dry-run"});
  EXPECT_EQ(named.exit_code, 0) << named.err;
}

TEST(Cli, TheDefaultResultsFileGoesUnderResults) {
  TempFolder folder;
  std::string command_dir = std::filesystem::current_path();
  std::filesystem::current_path(folder.path());
  CommandResult r = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "100", "-r", "2", "-q"});
  std::filesystem::current_path(command_dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder.file("results"))) {
    files.push_back(entry.path());
  }
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].extension(), ".json");
  EXPECT_TRUE(contains(r.out, "results: results/"));
}

// An empty --json or --history (an unset variable in a script: --history "$DB") and a --json
// beside --no-json are usage errors before any cell, never a default file or no history at all.
TEST(Cli, AnEmptyOrContradictedResultsPathIsAUsageError) {
  TempFolder folder;
  std::string command_dir = std::filesystem::current_path();
  std::filesystem::current_path(folder.path());
  for (const std::vector<std::string>& options :
       std::vector<std::vector<std::string>>{{"--json", ""},
                                             {"--history", ""},
                                             {"--no-json", "--json", "r.json"},
                                             {"--json", "r.json", "--history", ""}}) {
    std::vector<std::string> command = {"-p", "cpu_serial", "-w", "reduce", "-s", "100", "-r", "2"};
    command.insert(command.end(), options.begin(), options.end());
    CommandResult r = run_harness(command);
    EXPECT_EQ(r.exit_code, 2) << options[0] << " " << options[1] << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "--json") || contains(r.err, "--history")) << r.err;
  }
  std::filesystem::current_path(command_dir);
  EXPECT_FALSE(std::filesystem::exists(folder.file("results")));
  EXPECT_FALSE(std::filesystem::exists(folder.file("r.json")));
}

// A wrong answer keeps its time (it was measured), but no speedup: a ranking by speedup would
// put a plugin that skips work first.
TEST(Cli, AWrongAnswerFailsTheCellKeepsItsTimingNotASpeedupAndExitsOne) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("wrong_answer"), "-p", "cpu_serial,fake_wrong",
                   "-w", "reduce", "-s", "1000", "-r", "2", "--json", path, "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "NO (absolute difference")) << r.out;
  nlohmann::json results = read_json(path);
  const nlohmann::json* wrong = find_cell(results, "fake_wrong");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ((*wrong)["status"], "failed");
  EXPECT_FALSE((*wrong)["verification"]["passed"].get<bool>());
  EXPECT_EQ((*wrong)["verification"]["error"], 1.0);
  EXPECT_FALSE((*wrong)["time"]["kernel"].is_null());
  EXPECT_TRUE((*wrong)["speedup"].is_null()) << wrong->dump();
  EXPECT_TRUE((*wrong)["speedup_end_to_end"].is_null()) << wrong->dump();
  const nlohmann::json* good = find_cell(results, "cpu_serial");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ((*good)["status"], "ok");
  EXPECT_EQ((*good)["speedup"], 1.0);
}

TEST(Cli, APluginErrorIsRecordedWithItsMessageAndExitsThree) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("kernel_error"), "-p", "fake_error,cpu_serial",
                   "-w", "reduce", "-s", "1000", "-r", "2", "--json", path, "-q"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json* bad = find_cell(results, "fake_error");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ((*bad)["status"], "error");
  EXPECT_TRUE(contains((*bad)["message"].get<std::string>(), "the device caught fire"));
  EXPECT_EQ((*find_cell(results, "cpu_serial"))["status"], "ok");
}

TEST(Cli, ANamedUnavailablePluginGetsUnavailableCellsWithTheReason) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r = run_harness({"--plugin-dir", fake_plugin_dir("unavailable"), "-p",
                                 "fake_unavailable,cpu_serial", "-w", "reduce", "-s", "100", "-r",
                                 "2", "--json", path, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json* cell = find_cell(results, "fake_unavailable");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)["status"], "unavailable");
  EXPECT_EQ((*cell)["message"], "fake device is switched off");
}

TEST(Cli, BrokenPluginsAreRecordedAndTheRunGoesOn) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r = run_harness({"--plugin-dir", fake_plugin_dir("wrong_major"), "--plugin-dir",
                                 fake_plugin_dir("no_entry"), "-p", "cpu_serial", "-w", "reduce",
                                 "-s", "100", "-r", "2", "--json", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "major versions differ")) << r.err;
  nlohmann::json results = read_json(path);
  int broken = 0;
  for (const nlohmann::json& plugin : results["context"]["plugins"]) {
    if (plugin["status"] == "broken") {
      ++broken;
      EXPECT_FALSE(plugin["reason"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(broken, 2);
}

// A long matrix: Mandelbrot on one core takes about a second a call here.
const std::vector<std::string> kLongRun = {
    "-p", "cpu_serial", "-w", "mandelbrot", "-s", "1280x720,1281x720,1282x720,1283x720", "-r", "3"};

TEST(Cli, AnInterruptWritesTheFinishedCellsMarkedIncomplete) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  const std::string output = folder.file("output");
  std::vector<std::string> arguments = kLongRun;
  arguments.insert(arguments.end(), {"--json", path});
  int pid = plugbench::testing::start_harness(arguments, output);
  // The signal comes once the first problem's table is out (however long the start took on this
  // machine), while the second problem's cells run.
  ASSERT_TRUE(plugbench::testing::wait_for_text(output, "mandelbrot  n = 1280x720", pid))
      << plugbench::testing::read_text(output);
  kill(pid, SIGINT);
  EXPECT_EQ(plugbench::testing::wait_for_exit(pid), 5);
  nlohmann::json results = read_json(path);
  EXPECT_FALSE(results["complete"].get<bool>());
  EXPECT_EQ(results["interrupted_by_signal"], SIGINT);
  EXPECT_GE(results["results"].size(), 1u);  // the finished problem is kept
  EXPECT_LT(results["results"].size(), 4u);  // it stopped early
  for (const nlohmann::json& cell : results["results"]) EXPECT_EQ(cell["status"], "ok");
  // The file says how many cells the run set out to measure, and show's summary says it as the
  // run's did: "1 of 4 cells".
  EXPECT_EQ(results["planned_cells"], 4);
  const std::string of_four = std::to_string(results["results"].size()) + " of 4 cells: ";
  EXPECT_TRUE(contains(plugbench::testing::read_text(output), of_four))
      << plugbench::testing::read_text(output);
  CommandResult shown = run_harness({"show", path});
  EXPECT_TRUE(contains(shown.out, of_four)) << shown.out;
}

TEST(Cli, KillingTheHarnessLeavesTheOldResultsFileWhole) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult first = run_harness(
      {"-p", "cpu_serial", "-w", "reduce", "-s", "100", "-r", "2", "--json", path, "-q"});
  ASSERT_EQ(first.exit_code, 0);
  std::string old_text = plugbench::testing::read_text(path);
  const std::string output = folder.file("output");
  std::vector<std::string> arguments = kLongRun;
  arguments.insert(arguments.end(), {"--json", path});
  int pid = plugbench::testing::start_harness(arguments, output);
  ASSERT_TRUE(plugbench::testing::wait_for_text(output, "mandelbrot  n = 1280x720", pid))
      << plugbench::testing::read_text(output);
  kill(pid, SIGKILL);
  EXPECT_EQ(plugbench::testing::wait_for_exit(pid), 128 + SIGKILL);
  EXPECT_EQ(plugbench::testing::read_text(path), old_text);
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
        << "a temporary file was left behind before the rename: " << entry.path();
  }
}

// The float accumulator exists to show its error: opt-in, and it fails at 2^24.
TEST(Cli, AFloatAccumulatorIsShownWrongNotHidden) {
  CommandResult hidden = run_harness({"-p", "cpu_serial", "-w", "dot", "--dry-run"});
  EXPECT_FALSE(contains(hidden.out, "float_accumulator")) << hidden.out;
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r = run_harness({"-p", "cpu_serial", "-w", "dot", "-v", "float_accumulator", "-s",
                                 "2^24", "-r", "2", "--json", path, "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json cell = read_json(path)["results"][0];
  EXPECT_EQ(cell["status"], "failed");
  EXPECT_GT(cell["verification"]["error"].get<double>(), 1e-3);
}

}  // namespace
}  // namespace plugbench
