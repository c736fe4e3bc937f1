// test_hostile_input.cpp: what a user, the environment or a crafted results file hands the harness
// ends in a clear message and a documented exit code, never a crash: numbers that are nan, inf or
// out of range, OMP_NUM_THREADS beyond what libgomp survives, results files nested a million deep,
// fields of the wrong type outside the cells, huge values quoted in messages, and a stdout that
// cannot be written.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;
using plugbench::testing::write_text;

// A real results file, small enough to mutate.
nlohmann::json committed_results() {
  return read_json(std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json");
}

// `value` nested `depth` arrays deep.
std::string nested(std::size_t depth, const std::string& value) {
  return std::string(depth, '[') + value + std::string(depth, ']');
}

// The reading commands, each on `path` (compare against itself).
std::vector<std::vector<std::string>> every_reader(const std::string& path,
                                                   const std::string& folder) {
  return {{"show", path},
          {"compare", path, path},
          {"export", path, "--to", "gbench"},
          {"export", path, "--to", "bmf"},
          {"report", path, "--out", folder + "/page"}};
}

TEST(HostileInput, NumericOptionsRefuseNanInfinityAndValuesOutOfRange) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"--cell-budget", "nan"}, {"--cell-budget", "inf"},        {"--cell-budget", "0"},
      {"--min-time", "nan"},    {"--min-time", "-inf"},          {"--min-time", "-1"},
      {"--timeout", "nan"},     {"--timeout", "1e300"},          {"--timeout", "0x10"},
      {"--timeout", "5s"},      {"--throttle-threshold", "nan"}, {"--outlier-threshold", "inf"}};
  for (const auto& [option, value] : bad) {
    CommandResult r = run_harness({option, value, "--dry-run"});
    EXPECT_EQ(r.exit_code, 2) << option << " " << value << "\n" << r.out << r.err;
    EXPECT_TRUE(contains(r.err, option + " '" + value + "'")) << r.err;
  }
  CommandResult nan = run_harness({"--cell-budget", "nan", "--dry-run"});
  EXPECT_TRUE(contains(nan.err, "is not a finite decimal number")) << nan.err;
  CommandResult large = run_harness({"--timeout", "1e300", "--dry-run"});
  EXPECT_TRUE(contains(large.err, "must be at most 604800 s")) << large.err;
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"compare", "a.json", "b.json", "--threshold", "inf"},
           {"report", "a.json", "--threshold", "inf", "--out", "page"}}) {
    CommandResult threshold = run_harness(command);
    EXPECT_EQ(threshold.exit_code, 2) << threshold.err;
    EXPECT_TRUE(contains(threshold.err, "--threshold is not a finite number")) << threshold.err;
  }
  CommandResult fine =
      run_harness({"--cell-budget", "0.5", "--min-time", "1e-3", "--timeout", "0", "--dry-run"});
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
}

TEST(HostileInput, ATinyDiscoveryTimeoutIsIgnoredWithAWarningNotEveryPluginBroken) {
  CommandResult r = run_harness({"--list"}, "PLUGBENCH_DISCOVERY_TIMEOUT=1e-300 ");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "PLUGBENCH_DISCOVERY_TIMEOUT='1e-300' must be at least 0.1 s"))
      << r.err;
  EXPECT_FALSE(contains(r.out, "broken")) << r.out;
}

TEST(HostileInput, TooManyOpenMpThreadsAreRefusedBeforeTheRunNotACrash) {
  CommandResult r =
      run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3", "--no-json", "-q"},
                  "OMP_NUM_THREADS=100000 ");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "OMP_NUM_THREADS=100000 asks for more threads")) << r.err;
}

TEST(HostileInput, ResultsNestedAMillionDeepAreRefusedByEveryReader) {
  TempFolder folder;
  const std::string shallow = folder.file("deep_version.json");
  write_text(shallow, "{\"schema_version\":" + nested(100000, "1") + ",\"results\":[]}");
  nlohmann::json document = committed_results();
  document["results"][0]["time"] = "PLACEHOLDER";
  std::string text = document.dump();
  text.replace(text.find("\"PLACEHOLDER\""), 13, nested(1000000, "1"));
  const std::string deep = folder.file("deep_time.json");
  write_text(deep, text);
  for (const std::string& path : {shallow, deep}) {
    for (const std::vector<std::string>& command : every_reader(path, folder.path())) {
      CommandResult r = run_harness(command);
      EXPECT_EQ(r.exit_code, 2) << command[0] << " " << path << "\n" << r.err.substr(0, 2000);
      EXPECT_TRUE(contains(r.err, "nest more than 64 deep")) << r.err.substr(0, 2000);
      EXPECT_LT(r.err.size(), 2000u) << command[0];
    }
  }
}

TEST(HostileInput, SchemaVersionsPastTheIntegerRangeAndHugeValuesAreReportedShort) {
  TempFolder folder;
  nlohmann::json document = committed_results();
  document["schema_version"] = 18446744073709551615ull;
  write_text(folder.file("future.json"), document.dump());
  CommandResult future = run_harness({"show", folder.file("future.json")});
  EXPECT_EQ(future.exit_code, 2);
  EXPECT_TRUE(contains(future.err, "18446744073709551615 was written by a newer harness"))
      << future.err;

  document["schema_version"] = std::string(10 << 20, 'x') + "\x1b[2J";
  write_text(folder.file("long.json"), document.dump());
  CommandResult long_text = run_harness({"show", folder.file("long.json")});
  EXPECT_EQ(long_text.exit_code, 2);
  EXPECT_TRUE(contains(long_text.err, "schema_version is \"xxx")) << long_text.err.substr(0, 300);
  EXPECT_LT(long_text.err.size(), 400u);
}

TEST(HostileInput, FieldsOfTheWrongTypeOutsideTheCellsAreNamedWithExitTwo) {
  TempFolder folder;
  struct Case {
    std::string pointer;
    nlohmann::json value;
    std::string named;
  };
  const std::vector<Case> cases = {
      {"/complete", "no", "complete is \"no\", not true or false"},
      {"/context/host", "a string", "context/host is"},
      {"/context/build", 7, "context/build is 7"},
      {"/context/time", nlohmann::json::array(), "context/time is []"},
      {"/context/devices", {1, 2}, "context/devices is [1,2], not an array of objects"},
      {"/context/plugins", "x", "context/plugins is"},
      {"/context/mpi", {{"ranks", {1, "two"}}}, "context/mpi/ranks is"},
      {"/context/mpi", nlohmann::json::object(), "context/mpi has no 'ranks'"}};
  for (const Case& c : cases) {
    nlohmann::json document = committed_results();
    document[nlohmann::json::json_pointer(c.pointer)] = c.value;
    const std::string path = folder.file("odd.json");
    write_text(path, document.dump());
    for (const std::vector<std::string>& command : every_reader(path, folder.path())) {
      CommandResult r = run_harness(command);
      EXPECT_EQ(r.exit_code, 2) << c.pointer << " " << command[0] << "\n" << r.err;
      EXPECT_TRUE(contains(r.err, path + ": " + c.named)) << c.pointer << "\n" << r.err;
      EXPECT_FALSE(contains(r.err, "internal error")) << r.err;
    }
  }
}

TEST(HostileInput, GbenchExportLeavesOutContextValuesOfAnotherType) {
  TempFolder folder;
  nlohmann::json document = committed_results();
  document["context"]["host"]["name"] = 7;
  document["context"]["host"]["logical_cores"] = "many";
  document["context"]["host"]["frequency_scaling"] = nlohmann::json::object();
  document["context"]["build"]["assertions"] = nlohmann::json::array();
  document["context"]["plugins"] = {{{"build_info", "not an object"}}};
  write_text(folder.file("odd.json"), document.dump());
  CommandResult r = run_harness({"export", folder.file("odd.json"), "--to", "gbench"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json gbench = nlohmann::json::parse(r.out);
  EXPECT_EQ(gbench["context"]["host_name"], "");
  EXPECT_EQ(gbench["context"]["num_cpus"], 0);
  EXPECT_FALSE(gbench["context"].contains("cpu_scaling_enabled"));
}

TEST(HostileInput, AStdoutThatCannotBeWrittenExitsFour) {
  TempFolder folder;
  const std::string path = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  // The harness's stdout on /dev/full, then closed.
  for (const std::string& redirect : {std::string(">/dev/full"), std::string(">&-")}) {
    const std::string prefix = "sh -c 'exec \"$0\" \"$@\" " + redirect + "' ";
    for (const std::vector<std::string>& command :
         std::vector<std::vector<std::string>>{{"show", path},
                                               {"compare", path, path},
                                               {"export", path, "--to", "bmf"},
                                               {"export", path, "--to", "gbench"}}) {
      CommandResult r = run_harness(command, prefix);
      EXPECT_EQ(r.exit_code, 4) << redirect << " " << command[0] << "\n" << r.err;
      EXPECT_TRUE(contains(r.err, "could not write to stdout")) << r.err;
    }
  }
  CommandResult run = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3",
                                   "--warmup", "0", "--format", "bmf", "--no-json", "-q"},
                                  "sh -c 'exec \"$0\" \"$@\" >/dev/full' ");
  EXPECT_EQ(run.exit_code, 4) << run.err;
  // The history's queries too: `history changes --format md > changes.md` on a full disk is not
  // a report written (nor, with exit 1, a slowdown found).
  const std::string history = folder.file("runs.sqlite");
  ASSERT_EQ(run_harness({"history", "add", "--history", history, path}).exit_code, 0);
  for (const char* query : {"list", "machines", "changes", "trend"}) {
    std::vector<std::string> command = {"history", query, "--history", history};
    if (std::string(query) == "trend") command.push_back("workload=reduce");
    CommandResult r = run_harness(command, "sh -c 'exec \"$0\" \"$@\" >/dev/full' ");
    EXPECT_EQ(r.exit_code, 4) << query << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "could not write to stdout")) << r.err;
  }
}

// A reader that goes away before the answer ends (harness show big.json | head -1): the command
// says so and exits 4, never ends silently by SIGPIPE (141 from the shell). The answers here are
// longer than a pipe holds (the gbench export of the committed run is about 0.5 MB).
TEST(HostileInput, AReaderThatGoesAwayIsExitFourNotSigpipe) {
  const std::string path = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  const std::string prefix = "bash -c 'set -o pipefail; \"$0\" \"$@\" | head -c 1 >/dev/null' ";
  CommandResult r = run_harness({"export", path, "--to", "gbench"}, prefix);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(contains(r.err, "could not write to stdout")) << r.err;
}

// An export's --out that names the file it reads (or a link to it) would replace the run with the
// export: refused before anything is written, and the file left as it was.
TEST(HostileInput, AnExportOverItsOwnResultsFileIsRefused) {
  TempFolder folder;
  const std::string source = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  const std::string run = folder.file("run.json"), link = folder.file("link.json");
  const std::string text = plugbench::testing::read_text(source);
  write_text(run, text);
  std::filesystem::create_symlink(run, link);
  for (const auto& [input, out] :
       {std::pair{run, run}, std::pair{link, run}, std::pair{run, link}}) {
    CommandResult r = run_harness({"export", input, "--to", "bmf", "--out", out});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "is the results file being exported")) << r.err;
    EXPECT_EQ(plugbench::testing::read_text(run), text);
  }
}

// --errors (gbench) and --list (gab) given with a format that has no use for them would be dropped
// without a word, and the user would read an export other than the one asked for: refused, with
// the format each is for; the default format's own option still goes through.
TEST(HostileInput, ExportRefusesAnOptionItsFormatDoesNotUse) {
  const std::string source = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  for (const auto& [format, option, value, what] :
       {std::tuple{"bmf", "--list", "rate", "--list is for --to gab"},
        std::tuple{"gbench", "--list", "time", "--list is for --to gab"},
        std::tuple{"bmf", "--errors", "entries", "--errors is for --to gbench"},
        std::tuple{"gab", "--errors", "entries", "--errors is for --to gbench"}}) {
    CommandResult r = run_harness({"export", source, "--to", format, option, value});
    EXPECT_EQ(r.exit_code, 2) << format << " " << option << ": " << r.err;
    EXPECT_TRUE(contains(r.err, what)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 200);
  }
  EXPECT_EQ(run_harness({"export", source, "--to", "gab", "--list", "rate"}).exit_code, 0);
  EXPECT_EQ(run_harness({"export", source, "--to", "gbench", "--errors", "entries"}).exit_code, 0);
  // omit is what bmf and gab do anyway: a script that always passes it still works.
  EXPECT_EQ(run_harness({"export", source, "--to", "bmf", "--errors", "omit"}).exit_code, 0);
}

// An option given "" (a shell variable that was never set) would mean its default, or nothing,
// without a word: compare would judge without the history asked for, history would write to the
// default database. Every subcommand refuses it, naming the option, and nothing is written.
TEST(HostileInput, AnEmptyOptionValueIsRefusedBySubcommands) {
  TempFolder folder;
  const std::string run = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  const std::string data_home = folder.file("data");
  const std::vector<std::vector<std::string>> commands = {
      {"compare", run, run, "--history", ""},
      {"compare", "--base", run, "--new", ""},
      {"history", "add", "--history", "", run},
      {"history", "list", "--history", ""},
      {"report", run, "--out", ""},
      {"export", run, "--to", "bmf", "--out", ""},
      {"compare", run, run, "--plugins", ""}};
  for (const std::vector<std::string>& args : commands) {
    CommandResult r = run_harness(args, "XDG_DATA_HOME='" + data_home + "' ");
    // The option named: the one before the empty value, wherever the files are.
    const std::string option = *std::prev(std::find(args.begin(), args.end(), std::string()));
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
    EXPECT_TRUE(contains(r.err, option + " was given an empty value")) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(data_home)) << "no default history made";
  // The run's --check-plugin "" would run the whole benchmark instead, and pass.
  CommandResult check = run_harness({"--check-plugin", "", "-p", "cpu_serial", "--no-json"});
  EXPECT_EQ(check.exit_code, 2) << check.err;
  EXPECT_TRUE(contains(check.err, "--check-plugin '' names no file")) << check.err;
}

// A cell of one repetition has no spread: the gbench export writes no aggregates for it (Google
// Benchmark writes none for one repetition; a stddev and cv of 0 would read as a steady time),
// its one entry carries the median's counters, and gab's extra gives no cv.
TEST(HostileInput, AnExportOfOneRepetitionClaimsNoSpread) {
  TempFolder folder;
  const std::string run = folder.file("one.json");
  ASSERT_EQ(run_harness(
                {"-p", "cpu_serial", "-w", "reduce", "-s", "4096", "-r", "1", "--json", run, "-q"})
                .exit_code,
            0);
  CommandResult gbench = run_harness({"export", run, "--to", "gbench"});
  ASSERT_EQ(gbench.exit_code, 0) << gbench.err;
  const nlohmann::json benchmarks = nlohmann::json::parse(gbench.out)["benchmarks"];
  ASSERT_EQ(benchmarks.size(), 1u) << benchmarks.dump();
  EXPECT_EQ(benchmarks[0]["run_type"], "iteration");
  EXPECT_GT(benchmarks[0]["GB/s"].get<double>(), 0);
  CommandResult gab = run_harness({"export", run, "--to", "gab"});
  ASSERT_EQ(gab.exit_code, 0) << gab.err;
  EXPECT_EQ(nlohmann::json::parse(gab.out)[0]["extra"], "1 repetition") << gab.out;
}

// export reads files as large as show and compare do when told to (--max-file-mib), and refuses
// one over its limit with the way to raise it.
TEST(HostileInput, ExportTakesTheSameFileSizeLimitAsShow) {
  TempFolder folder;
  const std::string path = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  std::string padded = plugbench::testing::read_text(path);
  padded.insert(padded.rfind('}'),
                ", \"padding\": \"" + std::string(std::size_t{2} << 20, 'x') + "\"");
  write_text(folder.file("large.json"), padded);
  CommandResult refused =
      run_harness({"export", folder.file("large.json"), "--to", "bmf", "--max-file-mib", "1"});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_TRUE(contains(refused.err, "more than the 1 MiB a results file may have")) << refused.err;
  CommandResult read =
      run_harness({"export", folder.file("large.json"), "--to", "bmf", "--max-file-mib", "3"});
  EXPECT_EQ(read.exit_code, 0) << read.err;
}

TEST(HostileInput, ExportNamesTellApartShapesWithTheSameCount) {
  TempFolder folder;
  nlohmann::json document = committed_results();
  nlohmann::json cell;
  for (const nlohmann::json& each : document["results"]) {
    if (each["workload"] == "histogram" && each["status"] == "ok") cell = each;
  }
  ASSERT_TRUE(cell.is_object());
  document["results"] = nlohmann::json::array();
  for (auto [width, height] : {std::pair{64, 16}, std::pair{1024, 1}, std::pair{16, 64}}) {
    cell["n"] = 1024;
    cell["shape"] = {{"width", width}, {"height", height}};
    document["results"].push_back(cell);
  }
  write_text(folder.file("shapes.json"), document.dump());
  CommandResult r = run_harness({"export", folder.file("shapes.json"), "--to", "bmf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json bmf = nlohmann::json::parse(r.out);
  EXPECT_EQ(bmf.size(), 3u) << r.out.substr(0, 500);
  const std::string prefix = "histogram/" + cell["distribution"].get<std::string>() + "/";
  EXPECT_TRUE(bmf.contains(prefix + "64x16/cpu_serial/" + cell["variant"].get<std::string>()) ||
              cell["plugin"] != "cpu_serial")
      << r.out.substr(0, 500);
}

// A histogram given a count lays its pixels out in rows of 7680, the last one short (2^20 pixels:
// 136 full rows and one of 4096). Its labels name the count, never the sides of the larger image
// 7680x137 (1052160 pixels), which is another problem with its own export name.
TEST(HostileInput, AHistogramCountAndTheImageItsRowsSpanAreTwoProblemsInEveryLabel) {
  TempFolder folder;
  const std::string path = folder.file("h.json");
  CommandResult run = run_harness({"-p", "cpu_serial", "-w", "histogram", "-s", "2^20,7680x137",
                                   "-r", "2", "--warmup", "0", "--json", path});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  CommandResult shown = run_harness({"show", path});
  for (const std::string& text : {run.out, shown.out}) {
    EXPECT_TRUE(contains(text, "n = 1048576 (2^20 in rows of 7680)")) << text;
    EXPECT_TRUE(contains(text, "n = 7680x137 (1052160)")) << text;
    EXPECT_FALSE(contains(text, "7680x137 (1048576)")) << text;
  }
  CommandResult r = run_harness({"export", path, "--to", "bmf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json bmf = nlohmann::json::parse(r.out);
  EXPECT_EQ(bmf.size(), 2u) << r.out.substr(0, 500);
  EXPECT_TRUE(bmf.contains("histogram/photo/1048576_rows_of_7680/cpu_serial/loop")) << r.out;
  EXPECT_TRUE(bmf.contains("histogram/photo/7680x137/cpu_serial/loop")) << r.out;
}

// What a user typed is quoted in error lines with its control characters as escapes: a name or
// path holding ESC sequences cannot clear or recolour the terminal the error is read on.
TEST(HostileInput, TypedNamesAndPathsAreEchoedWithEscapes) {
  TempFolder folder;
  const std::string escape = "\x1b[2J";
  const std::vector<std::vector<std::string>> commands = {
      {"-p", "cpu" + escape, "-w", "reduce"},
      {"-w", "red" + escape},
      {"--plugin-dir", folder.file("none" + escape)},
      {"show", folder.file("no" + escape + "\n.json")},
      {"compare", folder.file("a" + escape + ".json"), folder.file("b.json")}};
  for (const std::vector<std::string>& command : commands) {
    CommandResult r = run_harness(command);
    EXPECT_EQ(r.exit_code, 2) << command[0] << " " << command[1];
    EXPECT_FALSE(contains(r.err, "\x1b")) << r.err;
    EXPECT_TRUE(contains(r.err, "\\x1b[2J")) << r.err;
  }
}

TEST(HostileInput, ExportSaysWhenAFileIsIncompleteOrACellSuspect) {
  TempFolder folder;
  nlohmann::json document = committed_results();
  document["complete"] = false;
  document["results"][0]["suspect"] = "above 1.5 times the measured peak";
  write_text(folder.file("odd.json"), document.dump());
  CommandResult r = run_harness({"export", folder.file("odd.json"), "--to", "bmf"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "is incomplete")) << r.err;
  EXPECT_TRUE(contains(r.err, "SUSPECT (exported; faster than the measured peak allows): ") &&
              contains(r.err, ": above 1.5 times the measured peak"))
      << r.err;
}

TEST(HostileInput, ControlBytesFromAFileOrAPluginReachStderrEscaped) {
  TempFolder folder;
  nlohmann::json document = committed_results();
  document["results"][0]["status"] = "error";
  document["results"][0]["message"] = "boom\x1b[2J\x07";
  write_text(folder.file("odd.json"), document.dump());
  for (const char* to : {"bmf", "gbench"}) {
    CommandResult r = run_harness({"export", folder.file("odd.json"), "--to", to});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(contains(r.err, "\x1b")) << r.err;
    EXPECT_TRUE(contains(r.err, "boom\\x1b[2J\\x07")) << r.err;
  }
  // A plugin refused for a kernel name with an escape sequence: "ignoring PATH: REASON".
  CommandResult run =
      run_harness({"--plugin-dir", plugbench::testing::fake_plugin_dir("hostile_text"), "-p",
                   "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3", "--no-json"},
                  "PLUGBENCH_HOSTILE_VARIANT=\"$(printf 'x\\033[2Jy')\" ");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.err, "ignoring")) << run.err;
  EXPECT_FALSE(contains(run.err, "\x1b[2J")) << run.err;  // the progress line's own \x1b[K apart
}

// `count` minimal cells of distinct n (each its own problem), in a real file's context.
std::string file_of_many_problems(std::size_t count) {
  nlohmann::json document = committed_results();
  nlohmann::json kernel = document["results"][0]["time"]["kernel"];
  kernel["samples_ms"] = {1.0, 1.1, 0.9};
  document["results"] = "CELLS";
  std::string text = "[";
  for (std::size_t i = 0; i < count; ++i) {
    const std::string n = std::to_string(1000 + i);
    text += (i ? ",{" : "{") + std::string("\"workload\":\"reduce\",\"plugin\":\"cpu_serial\",") +
            "\"variant\":\"loop\",\"distribution\":\"mod100\",\"status\":\"ok\",\"n\":" + n +
            ",\"shape\":{\"width\":" + n + ",\"height\":1},\"size\":\"" + n +
            "\",\"message\":\"\",\"flags\":[],\"memory_space\":\"host\",\"workspace_bytes\":0,"
            "\"time\":{\"kernel\":" +
            kernel.dump() +
            ",\"end_to_end\":null},\"transfers\":[],\"traffic\":null,\"verification\":null}";
  }
  std::string whole = document.dump();
  return whole.replace(whole.find("\"CELLS\""), 7, text + "]");
}

// Near-linear, judged by how the time grows, not by a time that a loaded machine would miss: four
// times the problems take about four times as long; a search per cell (show 55 s, report 200 s for
// 200k cells) made it sixteen.
TEST(HostileInput, ManyProblemsAreShownAndReportedInNearLinearTime) {
  if (plugbench::testing::kUnderAddressSanitizer) GTEST_SKIP() << "times are not comparable";
  TempFolder folder;
  const std::string small = folder.file("small.json"), large = folder.file("large.json");
  write_text(small, file_of_many_problems(10000));
  write_text(large, file_of_many_problems(40000));
  // The faster of two tries of `command` on `path`, in seconds.
  const auto seconds_of = [&](const std::string& command, const std::string& path) {
    double best = 1e300;
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::vector<std::string> arguments = {command, path};
      if (command == "report") arguments.insert(arguments.end(), {"--out", folder.file("page")});
      const auto start = std::chrono::steady_clock::now();
      CommandResult r = run_harness(arguments);
      best = std::min(
          best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      EXPECT_EQ(r.exit_code, 0) << command << " " << r.err.substr(0, 500);
    }
    return best;
  };
  for (const std::string command : {"show", "report"}) {
    const double small_s = seconds_of(command, small), large_s = seconds_of(command, large);
    EXPECT_LT(large_s, 10 * small_s)
        << command << ": 10k problems " << small_s << " s, 40k " << large_s << " s";
  }
}

TEST(HostileInput, AFileTooLargeForTheMemoryIsAClearErrorNotACrash) {
  if (plugbench::testing::kUnderAddressSanitizer) GTEST_SKIP() << "ulimit -v and ASan disagree";
  TempFolder folder;
  const std::string path = folder.file("large.json");
  write_text(path, file_of_many_problems(60000));
  for (const std::vector<std::string>& command : every_reader(path, folder.path())) {
    CommandResult r = run_harness(command, "ulimit -v 400000; ");
    EXPECT_EQ(r.exit_code, 2) << command[0] << " " << r.err.substr(0, 500);
    EXPECT_TRUE(contains(r.err, "harness " + command[0] + ": out of memory")) << r.err;
  }
}

// Two files near the size limit (64 MiB) in 4 GB of address space: each read takes a few times
// its size (its cells' JSON one at a time), the gbench export is written an entry at a time.
// With the whole document parsed (about 25 times the file) compare and report ran out.
TEST(HostileInput, TwoFilesNearTheSizeLimitAreReadInFourGigabytes) {
  if (plugbench::testing::kUnderAddressSanitizer) GTEST_SKIP() << "ulimit -v and ASan disagree";
  TempFolder folder;
  const std::string a = folder.file("a.json"), b = folder.file("b.json");
  const std::string text = file_of_many_problems(120000);
  ASSERT_GT(text.size(), std::size_t{55} << 20);
  write_text(a, text);
  write_text(b, text);
  const std::vector<std::vector<std::string>> commands = {
      {"show", a},
      {"compare", a, b},
      {"report", a, b, "--out", folder.file("page")},
      {"export", a, "--to", "gbench", "--out", folder.file("gbench.json")},
      {"export", a, "--to", "bmf", "--out", folder.file("bmf.json")}};
  for (const std::vector<std::string>& command : commands) {
    CommandResult r = run_harness(command, "ulimit -v 4000000; ");
    EXPECT_EQ(r.exit_code, 0) << command[0] << " " << r.err.substr(0, 500);
  }
}

}  // namespace
}  // namespace plugbench
