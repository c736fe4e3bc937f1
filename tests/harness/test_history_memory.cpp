// test_history_memory.cpp: a run's host memory against the same machine's other runs in the
// results history (issue #33: neighbours that share a VM's memory while its CPUs look quiet): a run
// 27 % below the others' median is called slower and the line names its figures, one 5 % below is
// not, two other runs give no verdict, other machines, other thread counts, the run itself and
// device peaks are not its baseline; `history list` marks it, `history add` says it for each run it
// added, `compare --history` and `report --history` for each side, and a run with --history under
// its summary.
#include "history/history_database.hpp"
#include "history/memory_level.hpp"
#include "results/results_reader.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::csv_rows;
using plugbench::testing::lines_of;
using plugbench::testing::read_json;
using plugbench::testing::read_text;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;
using plugbench::testing::write_text;

// What a run's calibration measured, and on which machine.
struct RunPeaks {
  double read = 0, copy = 0;  // host GB/s (0: none)
  std::string host = "vm";
  std::string gpu;         // the run's GPU ("": none)
  double device_copy = 0;  // a device peak of that GPU (0: none)
  std::string threads = "2 OpenMP threads";
  bool ranks = false;  // a run of several MPI ranks
};

RunPeaks host_peaks(double read, double copy) {
  RunPeaks peaks;
  peaks.read = read;
  peaks.copy = copy;
  return peaks;
}

// A committed run of the 2-core machine, cut to two cells, with its own time and run id and the
// peaks given (each host peak "measured by" the harness on `threads`).
nlohmann::json run_with(int number, const RunPeaks& peaks) {
  nlohmann::json document =
      read_json(std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json");
  nlohmann::json& results = document["results"];
  results.erase(results.begin() + 2, results.end());
  nlohmann::json& context = document["context"];
  char time[32];
  std::snprintf(time, sizeof time, "2026-11-%02dT02:00:00Z", number + 1);
  context["time"] = time;
  context["run_id"] = "run" + std::to_string(number);
  context["host"]["name"] = peaks.host;
  context["peaks"] = nlohmann::json::array();
  for (const auto& [pattern, gbps] : {std::pair{"read", peaks.read}, {"copy", peaks.copy}}) {
    if (gbps <= 0) continue;
    context["peaks"].push_back({{"memory_space", "host"},
                                {"device", ""},
                                {"pattern", pattern},
                                {"gbps", gbps},
                                {"bytes", 1 << 30},
                                {"best_ms", 1.0},
                                {"median_ms", 1.0},
                                {"measured_by", std::string("harness: a loop on ") + peaks.threads +
                                                    " (the fastest of 3 loops, each timed 10 "
                                                    "times)"}});
  }
  if (peaks.ranks) {
    context["mpi"] = read_json(std::string(PLUGBENCH_SOURCE_DIR) +
                               "/results/h200/mpi/h200-dist-np2-strong.json")["context"]["mpi"];
  }
  context["devices"] = nlohmann::json::array();
  if (!peaks.gpu.empty()) {
    context["devices"].push_back({{"name", peaks.gpu}, {"uuid", "GPU-" + peaks.gpu}});
  }
  for (const char* pattern : {"copy", "read"}) {
    if (peaks.device_copy <= 0) break;
    context["peaks"].push_back(
        {{"memory_space", "device"},
         {"device", peaks.gpu},
         {"pattern", pattern},
         {"gbps", peaks.device_copy},
         {"measured_by", std::string("plugin cub: ") + pattern + "_within, fastest of 10"}});
  }
  return document;
}

// Five quiet runs of the machine: read 160-172 GB/s (median 168), copy 170-178 (median 175).
std::vector<RunPeaks> quiet_runs() {
  return {host_peaks(160, 170), host_peaks(165, 175), host_peaks(168, 178), host_peaks(170, 176),
          host_peaks(172, 172)};
}

class HistoryMemory : public ::testing::Test {
 protected:
  // The run numbered `number`, written to a file of its own and read back as the commands read it.
  ResultsFile file_of(int number, const RunPeaks& peaks) {
    const std::string path = folder_.file("run" + std::to_string(number) + ".json");
    write_text(path, run_with(number, peaks).dump());
    return read_results_file(path, kDefaultMaxResultsBytes, CellJson::kept);
  }
  // Adds the runs, numbered from `first`, each with the read and copy peaks given.
  void add_runs(HistoryDatabase& history, int first, const std::vector<RunPeaks>& runs) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const ResultsFile file = file_of(first + static_cast<int>(i), runs[i]);
      ASSERT_TRUE(history.add_run(file, file.path).added);
    }
  }
  void add_quiet_runs(HistoryDatabase& history) { add_runs(history, 0, quiet_runs()); }
  std::string database() const { return folder_.file("history.sqlite"); }

  TempFolder folder_;
};

const MemoryLevel& level_of(const std::vector<MemoryLevel>& levels, const std::string& pattern) {
  for (const MemoryLevel& level : levels) {
    if (level.pattern == pattern) return level;
  }
  static const MemoryLevel none;
  ADD_FAILURE() << "no " << pattern << " level";
  return none;
}

// A file's run against the history, itself left out (as a run with --history sets it).
std::vector<MemoryLevel> levels_of(HistoryDatabase& history, const ResultsFile& file) {
  return MemoryLevels(history).of(file.context, {run_identity(file.context)});
}

TEST_F(HistoryMemory, ARunFarBelowTheMachinesUsualIsCalledSlowerAndTheLineNamesItsFigures) {
  HistoryDatabase history(database());
  add_quiet_runs(history);
  // 27 % below the read median (168 x 0.73), 18 % below the copy median (175 x 0.82).
  const ResultsFile shared = file_of(10, host_peaks(122.64, 143.5));
  const std::vector<MemoryLevel> levels = levels_of(history, shared);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].pattern, "read") << "read first";
  const MemoryLevel& read = level_of(levels, "read");
  EXPECT_EQ(read.runs, 5u);
  EXPECT_DOUBLE_EQ(read.median_gbps, 168);
  EXPECT_DOUBLE_EQ(read.lowest_gbps, 160);
  EXPECT_DOUBLE_EQ(read.highest_gbps, 172);
  EXPECT_TRUE(read.slower());
  EXPECT_TRUE(level_of(levels, "copy").slower());
  const std::string line = memory_level_line(levels);
  EXPECT_TRUE(contains(line,
                       "host memory: read 122.6 GB/s, 27 % below this machine's usual 168.0 "
                       "(median of 5 other runs in the history, 160.0-172.0); copy 143.5 GB/s, "
                       "18 % below this machine's usual 175.0 (median of 5 other runs in the "
                       "history, 170.0-178.0): neighbours may have shared it"))
      << line;
  EXPECT_EQ(memory_level_mark(read), "0.73 SLOWER");
}

TEST_F(HistoryMemory, ADisturbedRunAmongTheOthersDoesNotLowerTheUsual) {
  HistoryDatabase history(database());
  // Four quiet runs and one whose memory was shared: the usual is still 168.
  add_runs(history, 0,
           {host_peaks(168, 175), host_peaks(166, 175), host_peaks(170, 175), host_peaks(120, 130),
            host_peaks(168, 175)});
  const ResultsFile run = file_of(10, host_peaks(140, 0));  // 17 % below 168
  const MemoryLevel read = level_of(levels_of(history, run), "read");
  EXPECT_DOUBLE_EQ(read.median_gbps, 168);
  EXPECT_DOUBLE_EQ(read.lowest_gbps, 120);
  EXPECT_TRUE(read.slower()) << "against the median, not the lowest or the mean";
}

TEST_F(HistoryMemory, ARunFivePercentBelowIsAsUsual) {
  HistoryDatabase history(database());
  add_quiet_runs(history);
  // 5 % below the read median, 14 % below the copy median: both within the 15 %.
  const ResultsFile run = file_of(10, host_peaks(159.6, 150.5));
  const std::vector<MemoryLevel> levels = levels_of(history, run);
  EXPECT_FALSE(level_of(levels, "read").slower());
  EXPECT_FALSE(level_of(levels, "copy").slower());
  EXPECT_TRUE(level_of(levels, "read").judged());
  const std::string line = memory_level_line(levels);
  EXPECT_EQ(line,
            "host memory: read 159.6 GB/s, as usual (this machine's median 168.0 over 5 other runs "
            "in the history); copy 150.5 GB/s, as usual (this machine's median 175.0 over 5 other "
            "runs in the history)");
  EXPECT_EQ(memory_level_mark(level_of(levels, "read")), "0.95");
}

TEST_F(HistoryMemory, TwoOtherRunsGiveNoVerdict) {
  HistoryDatabase history(database());
  add_runs(history, 0, {host_peaks(168, 175), host_peaks(168, 175)});
  const ResultsFile shared = file_of(10, host_peaks(122.6, 0));
  const std::vector<MemoryLevel> levels = levels_of(history, shared);
  ASSERT_EQ(levels.size(), 1u) << "no copy peak, no copy level";
  EXPECT_EQ(levels[0].runs, 2u);
  EXPECT_FALSE(levels[0].judged());
  EXPECT_FALSE(levels[0].slower());
  EXPECT_EQ(memory_level_line(levels),
            "host memory: read 122.6 GB/s, not judged (2 other runs of this machine in the "
            "history, 3 needed)");
  EXPECT_EQ(memory_level_mark(levels[0]), "");
}

// Ranks of one run calibrate at once and share a host's memory: their peaks say nothing of the
// machine alone, so several-rank runs are neither counted nor judged.
TEST_F(HistoryMemory, RunsOfSeveralRanksAreNeitherCountedNorJudged) {
  HistoryDatabase history(database());
  add_quiet_runs(history);
  RunPeaks ranks = host_peaks(100, 100);
  ranks.ranks = true;
  add_runs(history, 5, {ranks, ranks, ranks});
  // Against the quiet runs' 168, 140 is 17 % below; with the three rank runs counted, the median
  // would be 162.5 and 140 only 14 % below it.
  const std::vector<MemoryLevel> levels = levels_of(history, file_of(10, host_peaks(140, 0)));
  EXPECT_EQ(level_of(levels, "read").runs, 5u);
  EXPECT_TRUE(level_of(levels, "read").slower());
  const ResultsFile ranked = file_of(11, ranks);
  ASSERT_TRUE(ranked.context.mpi.has_value());
  EXPECT_TRUE(levels_of(history, ranked).empty());
}

TEST_F(HistoryMemory, RunsOfAnotherHostGpuOrThreadCountAreNotCounted) {
  HistoryDatabase history(database());
  add_runs(history, 0, {host_peaks(168, 175), host_peaks(168, 175)});
  // Three of another host, three of the same host with a GPU, three on one thread: none counts.
  RunPeaks other_host = host_peaks(300, 300), with_gpu = host_peaks(300, 300),
           one_thread = host_peaks(40, 40);
  other_host.host = "elsewhere";
  with_gpu.gpu = "NVIDIA H100 80GB HBM3";
  one_thread.threads = "1 OpenMP threads";
  add_runs(history, 2, {other_host, other_host, other_host});
  add_runs(history, 5, {with_gpu, with_gpu, with_gpu});
  add_runs(history, 8, {one_thread, one_thread, one_thread});
  const ResultsFile shared = file_of(20, host_peaks(122.6, 143.5));
  const std::vector<MemoryLevel> levels = levels_of(history, shared);
  EXPECT_EQ(level_of(levels, "read").runs, 2u);
  EXPECT_FALSE(level_of(levels, "read").judged());
  EXPECT_DOUBLE_EQ(level_of(levels, "read").highest_gbps, 168);
  // The GPU machine's run counts its own three, not the two without a GPU.
  const ResultsFile gpu_run = file_of(21, with_gpu);
  EXPECT_EQ(level_of(MemoryLevels(history).of(gpu_run.context, {}), "read").runs, 3u);
}

TEST_F(HistoryMemory, TheRunItselfInTheHistoryIsNotItsOwnBaseline) {
  HistoryDatabase history(database());
  add_runs(history, 0, {host_peaks(168, 175), host_peaks(168, 175)});
  const ResultsFile shared = file_of(10, host_peaks(122.6, 143.5));
  const AddOutcome added = history.add_run(shared, shared.path);
  ASSERT_TRUE(added.added);
  // Another document of the same run (another digest, the same identity) is the run too.
  nlohmann::json again = shared.document;
  again["context"]["command_line"] = "harness (copied)";
  const std::string copy_path = folder_.file("copy.json");
  write_text(copy_path, again.dump());
  const ResultsFile copy = read_results_file(copy_path, kDefaultMaxResultsBytes, CellJson::kept);
  ASSERT_TRUE(history.add_run(copy, copy_path).added);

  const MemoryLevels levels(history);
  const MemoryLevel read =
      level_of(levels.of(shared.context, {run_identity(shared.context)}), "read");
  EXPECT_EQ(read.runs, 2u) << "two other runs: the run and its copy are left out";
  EXPECT_FALSE(read.judged());
  const MemoryLevel stored = level_of(levels.of_stored(added.run_id), "read");
  EXPECT_EQ(stored.runs, 2u);
  EXPECT_DOUBLE_EQ(stored.gbps, 122.6);
  // A run of those two is judged against the two others only: the shared run (and its copy,
  // counted once) and the other quiet run.
  EXPECT_EQ(level_of(levels.of_stored(1), "read").runs, 2u);
}

TEST_F(HistoryMemory, DevicePeaksAreNotJudged) {
  HistoryDatabase history(database());
  RunPeaks quiet = host_peaks(168, 175);
  quiet.gpu = "NVIDIA H100 80GB HBM3";
  quiet.device_copy = 3000;
  add_runs(history, 0, {quiet, quiet, quiet});
  // A device copy peak far below the others' and a host copy as usual: the copy level is the
  // host's, over the host's peaks only.
  RunPeaks run = quiet;
  run.device_copy = 1000;
  const ResultsFile file = file_of(10, run);
  const std::vector<MemoryLevel> levels = levels_of(history, file);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_DOUBLE_EQ(level_of(levels, "copy").gbps, 175);
  EXPECT_DOUBLE_EQ(level_of(levels, "copy").highest_gbps, 175);
  EXPECT_FALSE(level_of(levels, "copy").slower());
  // A run with a device peak alone has nothing to say.
  RunPeaks device_only;
  device_only.gpu = quiet.gpu;
  device_only.device_copy = 1000;
  const ResultsFile gpu_only = file_of(11, device_only);
  EXPECT_TRUE(MemoryLevels(history).of(gpu_only.context, {}).empty());
  // Nor does one in the history (history list leaves its read peak blank).
  const AddOutcome added = history.add_run(gpu_only, gpu_only.path);
  ASSERT_TRUE(added.added);
  EXPECT_TRUE(MemoryLevels(history).of_stored(added.run_id).empty());
  EXPECT_EQ(memory_level_line({}), "");
}

// The runs as `history add` stores them: five quiet ones and the shared one (number 10).
std::vector<std::string> written_runs(TempFolder& folder) {
  std::vector<std::string> paths;
  const std::vector<RunPeaks> runs = quiet_runs();
  for (std::size_t i = 0; i <= runs.size(); ++i) {
    const int number = i < runs.size() ? static_cast<int>(i) : 10;
    const RunPeaks peaks = i < runs.size() ? runs[i] : host_peaks(122.64, 143.5);
    paths.push_back(folder.file("run" + std::to_string(number) + ".json"));
    write_text(paths.back(), run_with(number, peaks).dump());
  }
  return paths;
}

// `history add` of written_runs into `database`: the command's result, the files in `paths`.
CommandResult add_written_runs(TempFolder& folder, const std::string& database,
                               std::vector<std::string>& paths) {
  paths = written_runs(folder);
  std::vector<std::string> add = {"history", "add", "--history", database};
  add.insert(add.end(), paths.begin(), paths.end());
  return run_harness(add);
}

TEST_F(HistoryMemory, ListMarksTheSlowRunInConsoleAndCsv) {
  std::vector<std::string> paths;
  CommandResult added = add_written_runs(folder_, database(), paths);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;

  CommandResult csv = run_harness({"history", "list", "--history", database(), "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const auto rows = csv_rows(csv.out);
  ASSERT_EQ(rows.size(), 6u) << csv.out;
  for (const auto& row : rows) {
    const bool shared = row.at("source_file") == paths.back();
    EXPECT_EQ(contains(row.at("host_read_vs_usual"), "SLOWER"), shared)
        << row.at("source_file") << ": " << row.at("host_read_vs_usual");
  }
  // The shared run against the five (median 168); the first quiet run against four quiet ones and
  // the shared one (median 168 too).
  EXPECT_EQ(rows.back().at("host_read_gbps"), "122.6");
  EXPECT_EQ(rows.back().at("host_read_vs_usual"), "0.73 SLOWER");
  EXPECT_EQ(rows.front().at("host_read_gbps"), "160.0");
  EXPECT_EQ(rows.front().at("host_read_vs_usual"), "0.95");

  CommandResult console = run_harness({"history", "list", "--history", database()});
  ASSERT_EQ(console.exit_code, 0) << console.err;
  std::size_t marked = 0;
  for (const std::string& line : lines_of(console.out)) {
    if (!contains(line, "SLOWER") || !contains(line, folder_.path())) continue;  // not the note
    ++marked;
    EXPECT_TRUE(contains(line, paths.back())) << line;
    EXPECT_TRUE(contains(line, "122.6")) << line;
  }
  EXPECT_EQ(marked, 1u) << console.out;
  EXPECT_TRUE(contains(console.out, "vs usual: the host read peak over the median")) << console.out;
}

TEST_F(HistoryMemory, HistoryAddSaysEachAddedRunsMemoryOnceAllAreStored) {
  std::vector<std::string> paths;
  CommandResult added = add_written_runs(folder_, database(), paths);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;
  // Each run against the five others, those added with it included: the shared run's line names
  // it, the quiet runs' say as usual.
  std::size_t said = 0;
  for (const std::string& line : lines_of(added.out)) said += contains(line, ": host memory: ");
  EXPECT_EQ(said, paths.size()) << added.out;
  EXPECT_TRUE(contains(added.out, paths.back() +
                                      ": host memory: read 122.6 GB/s, 27 % below this machine's "
                                      "usual 168.0 (median of 5 other runs in the history"))
      << added.out;
  EXPECT_TRUE(contains(added.out, paths[2] + ": host memory: read 168.0 GB/s, as usual"))
      << added.out;
  // A file already there is not added again, and says nothing of its memory.
  CommandResult again = run_harness({"history", "add", "--history", database(), paths.back()});
  EXPECT_EQ(again.exit_code, 3) << again.err;
  EXPECT_FALSE(contains(again.out, "host memory:")) << again.out;
}

TEST_F(HistoryMemory, ReportWithHistorySaysEachSidesMemoryUnderTheComparison) {
  std::vector<std::string> paths;
  ASSERT_EQ(add_written_runs(folder_, database(), paths).exit_code, 0);
  const std::string out = folder_.file("report");
  CommandResult report =
      run_harness({"report", paths[2], paths.back(), "--out", out, "--history", database()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string page = read_text(out + "/index.html");
  EXPECT_TRUE(contains(page, "base: host memory: read 168.0 GB/s, as usual")) << page;
  EXPECT_TRUE(contains(page, "new: host memory: read 122.6 GB/s, 27 % below")) << page;
  // Without --history the page has nothing to set the runs against.
  const std::string alone_out = folder_.file("report-alone");
  ASSERT_EQ(run_harness({"report", paths[2], paths.back(), "--out", alone_out}).exit_code, 0);
  EXPECT_FALSE(contains(read_text(alone_out + "/index.html"), "host memory:"));
}

TEST_F(HistoryMemory, CompareSaysEachSidesMemoryLeavingTheComparedFilesOut) {
  std::vector<std::string> paths;
  ASSERT_EQ(add_written_runs(folder_, database(), paths).exit_code, 0);
  // The base is the run of 168 GB/s, the new the shared run: both in the history, neither the
  // other's baseline nor its own: four other runs each.
  CommandResult compared =
      run_harness({"compare", paths[2], paths.back(), "--history", database(), "--format", "md"});
  ASSERT_NE(compared.exit_code, 2) << compared.err;
  EXPECT_TRUE(contains(compared.out,
                       "base: host memory: read 168.0 GB/s, as usual (this machine's median "
                       "167.5 over 4 other runs in the history)"))
      << compared.out;
  EXPECT_TRUE(contains(compared.out,
                       "new: host memory: read 122.6 GB/s, 27 % below this machine's usual 167.5 "
                       "(median of 4 other runs in the history, 160.0-172.0)"))
      << compared.out;
  // Without --history there is nothing to set the run against.
  CommandResult alone = run_harness({"compare", paths[2], paths.back(), "--format", "md"});
  EXPECT_FALSE(contains(alone.out, "host memory:")) << alone.out;
}

TEST_F(HistoryMemory, ARunWithHistorySaysItsMemoryUnderItsSummary) {
  const std::vector<std::string> run = {"-p",        "cpu_serial", "-w", "reduce", "-s",
                                        "1000",      "-r",         "3",  "--json", "",
                                        "--history", database(),   "-q"};
  std::vector<std::string> first = run;
  first[9] = folder_.file("first.json");
  CommandResult alone = run_harness(first);
  ASSERT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  // The first run of the machine: the line says it cannot be judged yet.
  EXPECT_TRUE(contains(alone.out,
                       "GB/s, not judged (no other run of this machine in the "
                       "history, 3 needed)"))
      << alone.out;
  // Three runs of this machine whose read peak no memory reaches: the next run is far below them,
  // whatever its own rate.
  std::vector<std::string> add = {"history", "add", "--history", database()};
  for (int i = 0; i < 3; ++i) {
    nlohmann::json copy = read_json(first[9]);
    copy["context"]["run_id"] = "fast" + std::to_string(i);
    for (nlohmann::json& peak : copy["context"]["peaks"]) peak["gbps"] = 1e6;
    add.push_back(folder_.file("fast" + std::to_string(i) + ".json"));
    write_text(add.back(), copy.dump());
  }
  ASSERT_EQ(run_harness(add).exit_code, 0);
  std::vector<std::string> second = run;
  second[9] = folder_.file("second.json");
  CommandResult slow = run_harness(second);
  ASSERT_EQ(slow.exit_code, 0) << slow.out << slow.err;
  const std::vector<std::string> lines = lines_of(slow.out);
  std::size_t added_at = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (contains(lines[i], "added " + second[9])) added_at = i;
  }
  ASSERT_LT(added_at + 1, lines.size()) << slow.out;
  // Against the first run and the three: the run itself, just added, is not among them.
  EXPECT_TRUE(contains(lines[added_at + 1], "host memory: read "));
  EXPECT_TRUE(contains(lines[added_at + 1],
                       "% below this machine's usual 1000000.0 (median of 4 other runs in the "
                       "history"))
      << lines[added_at + 1];
  EXPECT_TRUE(contains(lines[added_at + 1], "neighbours may have shared it")) << slow.out;
}

}  // namespace
}  // namespace plugbench
