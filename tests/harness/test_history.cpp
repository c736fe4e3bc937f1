// test_history.cpp: the results history (harness history): a run added once and refused again,
// list and trend, a 10 % step found at its run in 30 nightly runs and nothing else, two processes
// adding at once, an insert that fails or is killed leaving nothing, a newer schema and a corrupt
// file refused with a message, --history on a run, the trend charts harness report draws from a
// history (--history DB --trend FILTER), and its comparison judged over the history's runs.
#include "history/cell_filter.hpp"
#include "history/change_points.hpp"
#include "history/history_database.hpp"
#include "history/history_location.hpp"
#include "history/sha256.hpp"
#include "history/trend_chart.hpp"
#include "results/results_reader.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::csv_rows;
using plugbench::testing::run_harness;
using plugbench::testing::start_harness;
using plugbench::testing::TempFolder;
using plugbench::testing::wait_for_exit;
using plugbench::testing::write_text;

// A stored run of the repository, cut to its first `cells` cells (small and fast to add).
nlohmann::json base_run(std::size_t cells = 2) {
  nlohmann::json document = plugbench::testing::read_json(std::string(PLUGBENCH_SOURCE_DIR) +
                                                          "/results/cpu-2core-default.json");
  nlohmann::json& results = document["results"];
  results.erase(results.begin() + static_cast<long>(cells), results.end());
  return document;
}

void write(const nlohmann::json& document, const std::string& path) {
  std::ofstream(path) << document.dump();
}

// Night `night` of a series: its own time and commit, the first cell's kernel times scaled by
// `factor` and a deterministic noise of at most +-2 % (the second cell gets noise alone).
nlohmann::json night_run(int night, double factor) {
  nlohmann::json document = base_run();
  char day[32];
  std::snprintf(day, sizeof day, "2026-11-%02dT02:00:00Z", night + 1);
  document["context"]["time"] = day;
  document["context"]["build"]["git_commit"] = "commit" + std::to_string(night);
  for (std::size_t c = 0; c < 2; ++c) {
    // A fixed pseudo-random sequence (an LCG), distinct per night and cell.
    std::uint64_t state = static_cast<std::uint64_t>(night * 7919 + c * 104729 + 12345);
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double noise = 1 + 0.04 * (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5);
    const double scale = noise * (c == 0 ? factor : 1.0);
    nlohmann::json& kernel = document["results"][c]["time"]["kernel"];
    for (nlohmann::json& sample : kernel["samples_ms"]) sample = sample.get<double>() * scale;
    for (const char* key : {"median_ms", "mean_ms", "min_ms", "max_ms"}) {
      kernel[key] = kernel[key].get<double>() * scale;
    }
  }
  return document;
}

std::int64_t count_rows(const std::string& database, const std::string& table) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  std::int64_t count = -1;
  if (sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &statement, nullptr) ==
          SQLITE_OK &&
      sqlite3_step(statement) == SQLITE_ROW) {
    count = sqlite3_column_int64(statement, 0);
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return count;
}

TEST(HistorySha256, MatchesTheStandardsTestVectors) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(HistoryLocation, FollowsXdgDataHomeElseHome) {
  {
    plugbench::testing::ScopedEnv xdg("XDG_DATA_HOME", "/data");
    EXPECT_EQ(default_history_path(), "/data/plugbench/history.sqlite");
  }
  plugbench::testing::ScopedEnv xdg("XDG_DATA_HOME", "relative");  // invalid by the XDG spec
  EXPECT_EQ(default_history_path(),
            std::string(std::getenv("HOME")) + "/.local/share/plugbench/history.sqlite");
}

TEST(HistoryAdd, AddsARunOnceAndRefusesItAgainEvenReformatted) {
  TempFolder folder;
  const std::string database = folder.file("sub/history.sqlite");  // the folder is made
  write(base_run(), folder.file("run.json"));
  CommandResult first =
      run_harness({"history", "add", "--history", database, folder.file("run.json")});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.out, "added " + folder.file("run.json") + " as run 1")) << first.out;
  EXPECT_EQ(count_rows(database, "cells"), 2);
  EXPECT_GT(count_rows(database, "samples"), 2);

  std::ofstream(folder.file("copy.json")) << base_run().dump(2);
  CommandResult again = run_harness(
      {"history", "add", "--history", database, folder.file("run.json"), folder.file("copy.json")});
  EXPECT_EQ(again.exit_code, 3) << again.err;
  EXPECT_TRUE(contains(again.err,
                       "copy.json: this run is already in the history (run 1, added "
                       "from " +
                           folder.file("run.json")))
      << again.err;
  EXPECT_EQ(count_rows(database, "runs"), 1);
  EXPECT_EQ(count_rows(database, "cells"), 2);

  std::ofstream(folder.file("bad.json")) << "{\"schema";
  CommandResult bad =
      run_harness({"history", "add", "--history", database, folder.file("bad.json")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "truncated JSON")) << bad.err;
}

// A file name, a database path or a filter with control bytes reaches the terminal escaped from
// every history message (added, already there, no history, no match), so a hostile name cannot
// drive the terminal.
TEST(HistoryAdd, ControlBytesInNamesAreEscapedInEveryMessage) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  const std::string run = folder.file("evil\x1b[2Jrun.json");
  write(base_run(), run);
  const std::string escaped = folder.file("evil\\x1b[2Jrun.json");
  CommandResult first = run_harness({"history", "add", "--history", database, run});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.out, "added " + escaped + " as run 1")) << first.out;
  CommandResult again = run_harness({"history", "add", "--history", database, run});
  EXPECT_EQ(again.exit_code, 3);
  EXPECT_TRUE(contains(again.err, escaped +
                                      ": this run is already in the history (run 1, added "
                                      "from " +
                                      escaped))
      << again.err;
  CommandResult none =
      run_harness({"history", "list", "--history", folder.file("no\x1bne.sqlite")});
  EXPECT_EQ(none.exit_code, 4);
  CommandResult unmatched = run_harness({"history", "trend", "--history", database,
                                         "workload=re\x1b"
                                         "duce"});
  EXPECT_TRUE(contains(unmatched.err, "match 'workload=re\\x1bduce'")) << unmatched.err;
  for (const CommandResult* r : {&first, &again, &none, &unmatched}) {
    EXPECT_EQ(r->out.find('\x1b'), std::string::npos) << r->out;
    EXPECT_EQ(r->err.find('\x1b'), std::string::npos) << r->err;
  }
}

TEST(HistoryList, ShowsEachRunWithItsMachineCommitAndFile) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  for (int night = 0; night < 3; ++night) {
    write(night_run(night, 1.0), folder.file("night" + std::to_string(night) + ".json"));
    ASSERT_EQ(run_harness({"history", "add", "--history", database,
                           folder.file("night" + std::to_string(night) + ".json")})
                  .exit_code,
              0);
  }
  CommandResult list = run_harness({"history", "list", "--history", database, "--format", "csv"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  auto rows = csv_rows(list.out);
  ASSERT_EQ(rows.size(), 3u) << list.out;
  EXPECT_EQ(rows[1]["commit"], "commit1");
  EXPECT_EQ(rows[1]["time"], "2026-11-02T02:00:00Z");
  EXPECT_EQ(rows[1]["cells"], "2");
  EXPECT_EQ(rows[1]["source_file"], folder.file("night1.json"));
  // The machine as the runs name it: the committed file's host and CPU.
  const nlohmann::json host = base_run()["context"]["host"];
  const std::string machine =
      host["name"].get<std::string>() + " (" + host["cpu"].get<std::string>() + ")";
  EXPECT_TRUE(contains(rows[1]["machine"], machine)) << rows[1]["machine"] << " / " << machine;
}

TEST(HistoryTrend, ShowsTheCellsMedianAtEachRunOldestFirst) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  std::vector<double> medians;
  // Added newest first: the trend is in the runs' own time order, not the order of adding.
  for (int night = 3; night >= 0; --night) {
    nlohmann::json run = night_run(night, night >= 2 ? 1.5 : 1.0);
    medians.insert(medians.begin(), run["results"][0]["time"]["kernel"]["median_ms"].get<double>());
    write(run, folder.file("n" + std::to_string(night) + ".json"));
    ASSERT_EQ(run_harness({"history", "add", "--history", database,
                           folder.file("n" + std::to_string(night) + ".json")})
                  .exit_code,
              0);
  }
  const nlohmann::json cell = base_run()["results"][0];
  const std::string filter = "workload=" + cell["workload"].get<std::string>() +
                             ",plugin=" + cell["plugin"].get<std::string>() +
                             ",variant=" + cell["variant"].get<std::string>() +
                             ",size=" + cell["size"].get<std::string>();
  CommandResult trend =
      run_harness({"history", "trend", filter, "--history", database, "--format", "csv"});
  ASSERT_EQ(trend.exit_code, 0) << trend.err;
  auto rows = csv_rows(trend.out);
  ASSERT_EQ(rows.size(), 4u) << trend.out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["commit"], "commit" + std::to_string(i));
    EXPECT_NEAR(std::stod(rows[i]["median_ms"]), medians[i], medians[i] * 1e-3);
  }
  CommandResult console = run_harness(
      {"history", "trend", filter, "--history", database, "--svg", folder.file("trend.svg")});
  EXPECT_TRUE(contains(console.out, "median ms")) << console.out;
  // The chart: one point (a circle) per run, each run's commit in its tooltip.
  const std::string svg = plugbench::testing::read_text(folder.file("trend.svg"));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 80);
  std::size_t circles = 0;
  for (std::size_t at = svg.find("<circle"); at != std::string::npos;
       at = svg.find("<circle", at + 1)) {
    ++circles;
  }
  EXPECT_EQ(circles, 4u);
  EXPECT_TRUE(contains(svg, "commit3:")) << svg;

  CommandResult unknown = run_harness({"history", "trend", "colour=red", "--history", database});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown filter key 'colour'")) << unknown.err;
}

TEST(HistoryMachines, PutsEachMachinesLatestRunSideBySideFastestFirst) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  // node-a: two runs (the later one counts), node-b: one run 1.5 times slower.
  const std::vector<std::pair<std::string, double>> runs = {
      {"node-a", 2.0}, {"node-b", 1.5}, {"node-a", 1.0}};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    nlohmann::json run = night_run(static_cast<int>(i), runs[i].second);
    run["context"]["host"]["name"] = runs[i].first;
    write(run, folder.file(std::to_string(i) + ".json"));
    ASSERT_EQ(run_harness({"history", "add", "--history", database,
                           folder.file(std::to_string(i) + ".json")})
                  .exit_code,
              0);
  }
  const nlohmann::json cell = base_run()["results"][0];
  CommandResult machines = run_harness(
      {"history", "machines",
       "plugin=" + cell["plugin"].get<std::string>() + ",size=" + cell["size"].get<std::string>(),
       "--history", database, "--format", "csv"});
  ASSERT_EQ(machines.exit_code, 0) << machines.err;
  auto rows = csv_rows(machines.out);
  ASSERT_EQ(rows.size(), 2u) << machines.out;
  EXPECT_TRUE(contains(rows[0]["machine"], "node-a")) << machines.out;
  EXPECT_EQ(rows[0]["commit"], "commit2") << "the latest run of node-a";
  EXPECT_TRUE(contains(rows[1]["machine"], "node-b"));
  EXPECT_NEAR(std::stod(rows[1]["times_fastest"]), 1.5, 0.1);
  EXPECT_FALSE(rows[1]["percent_of_peak"].empty());
}

TEST(HistoryUsage, MistakesAreUsageErrorsAndAQueryNeverMakesADatabase) {
  TempFolder folder;
  CommandResult none = run_harness({"history"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(contains(none.err, "add, list, trend, machines or changes")) << none.err;
  CommandResult bogus = run_harness({"history", "delete"});
  EXPECT_EQ(bogus.exit_code, 2);
  CommandResult help = run_harness({"history", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "XDG_DATA_HOME")) << help.out;
  CommandResult missing =
      run_harness({"history", "changes", "--history", folder.file("typo.sqlite")});
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_TRUE(contains(missing.err, "no history there")) << missing.err;
  EXPECT_FALSE(std::ifstream(folder.file("typo.sqlite")).good());
}

TEST(HistoryChanges, FindsTheOneTenPercentStepAtItsRunAndNoOther) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  std::vector<std::string> files;
  for (int night = 0; night < 30; ++night) {
    files.push_back(folder.file("night" + std::to_string(night) + ".json"));
    write(night_run(night, night >= 17 ? 1.10 : 1.0), files.back());
  }
  std::vector<std::string> add = {"history", "add", "--history", database};
  add.insert(add.end(), files.begin(), files.end());
  ASSERT_EQ(run_harness(add).exit_code, 0);

  CommandResult changes =
      run_harness({"history", "changes", "--history", database, "--format", "csv"});
  EXPECT_EQ(changes.exit_code, 1) << "a slowdown exits 1\n" << changes.out << changes.err;
  auto rows = csv_rows(changes.out);
  ASSERT_EQ(rows.size(), 1u) << changes.out;
  EXPECT_EQ(rows[0]["commit_range"], "commit16..commit17");
  EXPECT_EQ(rows[0]["first_run_file"], files[17]);
  EXPECT_EQ(rows[0]["first_run_commit"], "commit17");
  EXPECT_EQ(rows[0]["first_run_time"], "2026-11-18T02:00:00Z");
  EXPECT_EQ(rows[0]["verdict"], "SLOWER");
  const double step = std::stod(rows[0]["step"]);
  EXPECT_GT(step, 7.0);
  EXPECT_LT(step, 13.0);
  EXPECT_GE(std::stod(rows[0]["confidence"]), 95.0);

  // The noise-only cell alone: nothing found, exit 0.
  const nlohmann::json quiet = base_run()["results"][1];
  CommandResult none = run_harness({"history", "changes",
                                    "plugin=" + quiet["plugin"].get<std::string>() +
                                        ",variant=" + quiet["variant"].get<std::string>() +
                                        ",size=" + quiet["size"].get<std::string>() +
                                        ",workload=" + quiet["workload"].get<std::string>(),
                                    "--history", database, "--format", "csv"});
  EXPECT_EQ(none.exit_code, 0) << none.out;
  EXPECT_TRUE(csv_rows(none.out).empty()) << none.out;
}

TEST(HistoryChangePoints, FlatNoiseHasNoChangeAndAStepIsFoundWhereItIs) {
  std::vector<double> series;
  for (int i = 0; i < 40; ++i) series.push_back(10 + ((i * 37) % 11) * 0.02);
  EXPECT_TRUE(find_change_points(series).empty());
  for (int i = 25; i < 40; ++i) series[i] *= 0.8;
  auto found = find_change_points(series);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 25u);
  EXPECT_NEAR(found[0].after / found[0].before, 0.8, 0.02);
}

TEST(HistoryConcurrency, TwoProcessesAddingAtOnceBothKeepEveryRun) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  std::vector<std::string> first = {"history", "add", "--history", database};
  std::vector<std::string> second = first;
  for (int night = 0; night < 24; ++night) {
    const std::string file = folder.file("night" + std::to_string(night) + ".json");
    write(night_run(night, 1.0), file);
    (night % 2 ? first : second).push_back(file);
  }
  // Neither finds the database made: both create it, migrate it and add, at the same time.
  const int a = start_harness(first, folder.file("a.txt"));
  const int b = start_harness(second, folder.file("b.txt"));
  EXPECT_EQ(wait_for_exit(a), 0) << plugbench::testing::read_text(folder.file("a.txt"));
  EXPECT_EQ(wait_for_exit(b), 0) << plugbench::testing::read_text(folder.file("b.txt"));
  EXPECT_EQ(count_rows(database, "runs"), 24);
  EXPECT_EQ(count_rows(database, "cells"), 48);
}

TEST(HistoryFaults, AnInsertThatFailsHalfwayLeavesNothing) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  const ResultsFile file = parse_results_text(base_run().dump(), "run.json", CellJson::kept);
  {
    HistoryDatabase history(database);
    EXPECT_THROW(history.add_run(file, "run.json",
                                 [](std::size_t cells) {
                                   if (cells == 1) throw std::runtime_error("disk gone");
                                 }),
                 std::runtime_error);
  }
  for (const char* table : {"runs", "cells", "samples", "peaks", "machines"}) {
    EXPECT_EQ(count_rows(database, table), 0) << table;
  }
  HistoryDatabase history(database);
  EXPECT_TRUE(history.add_run(file, "run.json").added) << "not taken for a duplicate";
}

TEST(HistoryFaults, AProcessKilledMidInsertLeavesNothing) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  const ResultsFile file = parse_results_text(base_run().dump(), "run.json", CellJson::kept);
  { HistoryDatabase made(database); }
  const pid_t child = fork();
  if (child == 0) {
    HistoryDatabase history(database);
    history.add_run(file, "run.json", [](std::size_t cells) {
      if (cells == 1) ::kill(::getpid(), SIGKILL);  // as a crash or an OOM kill would
    });
    _exit(0);
  }
  EXPECT_EQ(wait_for_exit(child), 128 + SIGKILL);
  CommandResult list = run_harness({"history", "list", "--history", database, "--format", "csv"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_TRUE(csv_rows(list.out).empty()) << list.out;
  EXPECT_EQ(count_rows(database, "cells"), 0);
  EXPECT_EQ(count_rows(database, "samples"), 0);
}

TEST(HistoryFaults, ADatabaseOfANewerSchemaIsRefusedAndLeftAlone) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  { HistoryDatabase made(database); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(database.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  write(base_run(), folder.file("run.json"));
  CommandResult add =
      run_harness({"history", "add", "--history", database, folder.file("run.json")});
  EXPECT_EQ(add.exit_code, 4);
  EXPECT_TRUE(contains(add.err, "history schema version 99 was written by a newer harness"))
      << add.err;
  EXPECT_TRUE(contains(add.err, "update plugbench")) << add.err;
  EXPECT_EQ(count_rows(database, "runs"), 0);
}

TEST(HistoryFaults, ACorruptOrForeignFileIsReportedNeverACrash) {
  TempFolder folder;
  std::ofstream(folder.file("garbage.sqlite")) << std::string(8192, 'x');
  CommandResult garbage =
      run_harness({"history", "list", "--history", folder.file("garbage.sqlite")});
  EXPECT_EQ(garbage.exit_code, 4);
  EXPECT_TRUE(contains(garbage.err, "not a readable history database")) << garbage.err;

  // A real history whose pages after the header are overwritten.
  const std::string damaged = folder.file("damaged.sqlite");
  {
    HistoryDatabase history(damaged);
    history.add_run(parse_results_text(base_run(20).dump(), "run.json", CellJson::kept),
                    "run.json");
    history.connection().execute("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  {
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(4096);
    const std::string junk(64 * 1024, '\x5a');
    file.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  for (const char* command : {"list", "trend", "changes"}) {
    std::vector<std::string> arguments = {"history", command, "--history", damaged};
    if (std::string(command) == "trend") arguments.push_back("workload=reduce");
    CommandResult r = run_harness(arguments);
    EXPECT_EQ(r.exit_code, 4) << command << ": " << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "damaged.sqlite")) << r.err;
  }

  // A folder or a device is named as such, not as a disk error.
  CommandResult folder_given = run_harness({"history", "list", "--history", folder.path()});
  EXPECT_EQ(folder_given.exit_code, 4);
  EXPECT_TRUE(contains(folder_given.err, "is a folder, not a history database"))
      << folder_given.err;
  CommandResult device = run_harness({"history", "add", "--history", "/dev/null", "x.json"});
  EXPECT_EQ(device.exit_code, 4);
  EXPECT_TRUE(contains(device.err, "not a regular file")) << device.err;

  // Another program's SQLite database is not taken over.
  const std::string foreign = folder.file("foreign.sqlite");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE notes (text TEXT)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  CommandResult other = run_harness({"history", "list", "--history", foreign});
  EXPECT_EQ(other.exit_code, 4);
  EXPECT_TRUE(contains(other.err, "another program")) << other.err;
}

// A history of `nights` runs of base_run() (the first cell slower from night 2), each file kept.
std::vector<std::string> make_history(const TempFolder& folder, const std::string& database,
                                      int nights) {
  std::vector<std::string> files;
  for (int night = 0; night < nights; ++night) {
    files.push_back(folder.file("night" + std::to_string(night) + ".json"));
    write(night_run(night, night >= 2 ? 1.5 : 1.0), files.back());
    EXPECT_EQ(run_harness({"history", "add", "--history", database, files.back()}).exit_code, 0);
  }
  return files;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

TEST(HistoryReport, TrendAddsAHistorySectionWithTheChartAndThePoints) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  const std::vector<std::string> files = make_history(folder, database, 4);
  const nlohmann::json cell = base_run()["results"][0];
  const std::string filter = "plugin=" + cell["plugin"].get<std::string>() +
                             ",variant=" + cell["variant"].get<std::string>() +
                             ",size=" + cell["size"].get<std::string>();
  const std::string workload = "workload=" + cell["workload"].get<std::string>();
  CommandResult report =
      run_harness({"report", files.back(), "--out", folder.file("report"), "--history", database,
                   "--trend", filter, "--trend", workload});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string page = plugbench::testing::read_text(folder.file("report/index.html"));
  // The section, listed in the contents, a heading per --trend (the filter escaped as text).
  EXPECT_TRUE(contains(page, ">history</h2>")) << page;
  EXPECT_TRUE(contains(page, ">trend: " + filter + "</h3>")) << page;
  EXPECT_TRUE(contains(page, ">trend: " + workload + "</h3>")) << page;
  EXPECT_TRUE(contains(page, "Trends from the results history " + database)) << page;
  // The charts: trend_chart's SVG as harness history trend --svg draws it, inline in the page as
  // its own charts are (the text in it escaped there).
  HistoryDatabase history(database);
  EXPECT_TRUE(contains(page, "<figure>\n" + trend_svg(history.cells(parse_cell_filter(filter)))))
      << page;
  EXPECT_TRUE(contains(page, trend_svg(history.cells(parse_cell_filter(workload))))) << page;
  EXPECT_EQ(occurrences(page, "median kernel time per run"), 2u) << page;
  // One point per run, its time and commit in its tooltip: the first filter's single series (4
  // runs), the second's two cells (8).
  EXPECT_EQ(occurrences(page, "<title>2026-11-0"), 12u) << page;
  EXPECT_TRUE(contains(page, "commit3: ")) << "each point's commit in its tooltip";
  // The cell's name, and a table of the points: each run's commit and the file it came from.
  const std::string name =
      cell["workload"].get<std::string>() + " " + cell["distribution"].get<std::string>() + " " +
      cell["size"].get<std::string>() + " " + cell["plugin"].get<std::string>() + "/" +
      cell["variant"].get<std::string>();
  EXPECT_TRUE(contains(page, name)) << page;
  for (int night = 0; night < 4; ++night) {
    EXPECT_TRUE(contains(page, "<td class=\"text\">commit" + std::to_string(night) + "</td>"))
        << page;
  }
  EXPECT_TRUE(contains(page, files.front())) << page;
  // Still the page's own policy: nothing fetched, no script.
  EXPECT_TRUE(contains(page, "Content-Security-Policy\" content=\"default-src 'none'")) << page;
  EXPECT_FALSE(contains(page, "<script")) << page;

  // Without --trend the page is what it was: no history section.
  CommandResult plain = run_harness({"report", files.back(), "--out", folder.file("plain")});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(contains(plugbench::testing::read_text(folder.file("plain/index.html")),
                        "median kernel time per run"));
}

TEST(HistoryReport, AnUnusableHistoryIsExitFourAndAFilterMatchingNothingExitTwo) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  const std::vector<std::string> files = make_history(folder, database, 2);
  const std::string out = folder.file("report");
  const std::string page = out + "/index.html";

  CommandResult absent = run_harness({"report", files[0], "--out", out, "--history",
                                      folder.file("typo.sqlite"), "--trend", "workload=reduce"});
  EXPECT_EQ(absent.exit_code, 4);
  EXPECT_TRUE(contains(absent.err, "no history there")) << absent.err;
  EXPECT_FALSE(std::ifstream(folder.file("typo.sqlite")).good()) << "a report never makes one";
  EXPECT_FALSE(std::ifstream(page).good());

  std::ofstream(folder.file("garbage.sqlite")) << std::string(8192, 'x');
  CommandResult garbage = run_harness({"report", files[0], "--out", out, "--history",
                                       folder.file("garbage.sqlite"), "--trend", "plugin=openmp"});
  EXPECT_EQ(garbage.exit_code, 4);
  EXPECT_TRUE(contains(garbage.err, "not a readable history database")) << garbage.err;
  EXPECT_FALSE(std::ifstream(page).good());

  CommandResult nothing = run_harness(
      {"report", files[0], "--out", out, "--history", database, "--trend", "workload=nosuch"});
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_TRUE(contains(nothing.err, "--trend 'workload=nosuch' matches no cell in " + database))
      << nothing.err;
  EXPECT_FALSE(std::ifstream(page).good());

  CommandResult unknown = run_harness(
      {"report", files[0], "--out", out, "--history", database, "--trend", "colour=red"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown filter key 'colour'")) << unknown.err;
  CommandResult no_trend = run_harness({"report", files[0], "--out", out, "--history", database});
  EXPECT_EQ(no_trend.exit_code, 2);
  EXPECT_TRUE(contains(no_trend.err, "--history needs --trend")) << no_trend.err;
  EXPECT_FALSE(std::ifstream(page).good());

  CommandResult help = run_harness({"report", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--trend")) << help.out;
}

// With two files, --history judges the page's comparison as harness compare --history does: each
// cell against how much its earlier runs on the machine differ. A first cell 1.2x slower in the new
// run is slower over its samples alone, and too noisy over runs that wandered by a fifth.
TEST(HistoryReport, WithASecondFileTheComparisonIsJudgedOverTheEarlierRuns) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  const std::vector<double> wandering = {1.0, 1.25, 0.8, 1.1};
  for (std::size_t night = 0; night < wandering.size(); ++night) {
    const std::string file = folder.file("night" + std::to_string(night) + ".json");
    write(night_run(static_cast<int>(night), wandering[night]), file);
    ASSERT_EQ(run_harness({"history", "add", "--history", database, file}).exit_code, 0);
  }
  const std::string base = folder.file("base.json"), slowed = folder.file("slowed.json");
  write(night_run(10, 1.0), base);
  write(night_run(11, 1.2), slowed);

  ASSERT_EQ(run_harness({"report", base, slowed, "--out", folder.file("alone")}).exit_code, 0);
  const std::string alone = plugbench::testing::read_text(folder.file("alone/index.html"));
  EXPECT_TRUE(contains(alone, "<td class=\"text\">slower</td>")) << alone;

  CommandResult over =
      run_harness({"report", base, slowed, "--out", folder.file("over"), "--history", database});
  ASSERT_EQ(over.exit_code, 0) << over.err;
  const std::string page = plugbench::testing::read_text(folder.file("over/index.html"));
  EXPECT_TRUE(contains(page, "4 earlier runs of this machine in " + database)) << page;
  EXPECT_TRUE(contains(page, "(t over the history")) << page;
  EXPECT_FALSE(contains(page, "<td class=\"text\">slower</td>")) << page;
  EXPECT_FALSE(contains(page, ">history</h2>")) << "no --trend, no history section";
  // The verdicts are compare's: its summary line with the same history is on the page.
  CommandResult compare = run_harness({"compare", base, slowed, "--history", database});
  const std::size_t line = compare.out.find(" cells compared: ");
  ASSERT_NE(line, std::string::npos) << compare.out;
  const std::size_t start = compare.out.rfind('\n', line) + 1;
  EXPECT_TRUE(contains(page, compare.out.substr(start, compare.out.find('\n', line) - start)))
      << compare.out << page;

  // A history that is not there: exit 4, nothing made, no page.
  const std::string typo = folder.file("typo.sqlite");
  CommandResult absent =
      run_harness({"report", base, slowed, "--out", folder.file("absent"), "--history", typo});
  EXPECT_EQ(absent.exit_code, 4);
  EXPECT_TRUE(contains(absent.err, "no history there")) << absent.err;
  EXPECT_FALSE(std::ifstream(typo).good()) << "a report never makes one";
  EXPECT_FALSE(std::ifstream(folder.file("absent/index.html")).good());
}

TEST(HistoryRun, HistoryOnARunAddsTheFinishedFile) {
  TempFolder folder;
  const std::string database = folder.file("history.sqlite");
  CommandResult run = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3",
                                   "--json", folder.file("run.json"), "--history", database, "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(contains(run.out, "added " + folder.file("run.json") + " as run 1")) << run.out;
  CommandResult again =
      run_harness({"history", "add", "--history", database, folder.file("run.json")});
  EXPECT_EQ(again.exit_code, 3) << "the file as written is the run the history holds";

  CommandResult no_json = run_harness({"--no-json", "--history", database});
  EXPECT_EQ(no_json.exit_code, 2);
  EXPECT_TRUE(contains(no_json.err, "--no-json")) << no_json.err;
}

// The trend's chart is never written over the history it was drawn from (it had replaced the
// database with the SVG), and is written whole or not at all.
TEST(HistoryTrend, AChartNamedAsTheDatabaseIsRefusedAndTheHistoryKept) {
  TempFolder folder;
  const std::string history = folder.file("runs.sqlite");
  const std::string run = std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  ASSERT_EQ(run_harness({"history", "add", "--history", history, run}).exit_code, 0);
  CommandResult r =
      run_harness({"history", "trend", "workload=reduce", "--history", history, "--svg", history});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "is the history database")) << r.err;
  CommandResult list = run_harness({"history", "list", "--history", history});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  CommandResult drawn = run_harness({"history", "trend", "workload=reduce", "--history", history,
                                     "--svg", folder.file("charts/trend.svg")});
  EXPECT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_TRUE(contains(plugbench::testing::read_text(folder.file("charts/trend.svg")), "<svg"));
}

// A --history that cannot be one (a results file named by mistake, the run's own --json, a
// folder) is a usage error before the first cell, as a bad --json is, not exit 4 after them all;
// nothing is written, and the file named is left as it was.
TEST(HistoryRun, AHistoryPathThatCannotBeOneIsRefusedBeforeTheRun) {
  TempFolder folder;
  const std::string results = folder.file("earlier.json");
  const std::string text = plugbench::testing::read_text(std::string(PLUGBENCH_SOURCE_DIR) +
                                                         "/results/cpu-2core-default.json");
  write_text(results, text);
  std::filesystem::create_directory(folder.file("a_folder"));
  const std::string run_file = folder.file("run.json");
  const std::string run_spelled = folder.path() + "/./run.json";
  for (const auto& [history, said] :
       {std::pair{results, "not an SQLite database"}, std::pair{run_file, "the run's results file"},
        std::pair{run_spelled, "the run's results file"},
        std::pair{folder.file("a_folder"), "is a folder"}}) {
    CommandResult r = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3",
                                   "--json", run_file, "--history", history, "-q"});
    EXPECT_EQ(r.exit_code, 2) << history << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, said)) << r.err;
    EXPECT_FALSE(std::filesystem::exists(run_file)) << "a cell ran for " << history;
  }
  EXPECT_EQ(plugbench::testing::read_text(results), text);
  // An empty file is a new history, as `history add` takes it (--history "$(mktemp)").
  write_text(folder.file("empty.sqlite"), "");
  CommandResult empty =
      run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000", "-r", "3", "--json", run_file,
                   "--history", folder.file("empty.sqlite"), "-q"});
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
}

}  // namespace
}  // namespace plugbench
