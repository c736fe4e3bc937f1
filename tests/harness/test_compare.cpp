// test_compare.cpp: `harness compare` as a user (or CI) runs it: a file against itself, a cell
// twice as slow, noisy repetitions, cells on one side only, wrong answers, machines that differ,
// files it must refuse, and its markdown and CSV output.
#include "results/results_json.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
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

const std::map<std::string, std::string>& row_for(
    const std::vector<std::map<std::string, std::string>>& rows, const std::string& workload,
    const std::string& plugin, const std::string& n) {
  for (const auto& row : rows) {
    if (row.at("workload") == workload && row.at("plugin") == plugin && row.at("n") == n) {
      return row;
    }
  }
  static const std::map<std::string, std::string> none;
  ADD_FAILURE() << "no row for " << workload << " " << plugin << " " << n;
  return none;
}

// The verdicts where only openmp's reduce at 2^12 was made slower: it slower, every other cell
// same.
void expect_only_openmp_reduce_4096_slower(
    const std::vector<std::map<std::string, std::string>>& rows) {
  for (const auto& row : rows) {
    const bool changed =
        row.at("workload") == "reduce" && row.at("plugin") == "openmp" && row.at("n") == "4096";
    EXPECT_EQ(row.at("verdict"), changed ? "slower" : "same")
        << row.at("plugin") << " " << row.at("why");
  }
}

nlohmann::json& cell_of(nlohmann::json& document, const std::string& workload,
                        const std::string& plugin, std::uint64_t n) {
  for (nlohmann::json& cell : document["results"]) {
    if (cell["workload"] == workload && cell["plugin"] == plugin && cell["n"] == n) return cell;
  }
  throw std::runtime_error("no such cell");
}

// Scales every kernel time of a cell, as if that cell ran `factor` times as long.
void scale_kernel_time(nlohmann::json& cell, double factor) {
  nlohmann::json& kernel = cell["time"]["kernel"];
  for (const char* key : {"median_ms", "mean_ms", "min_ms", "max_ms", "stddev_ms"}) {
    kernel[key] = kernel[key].get<double>() * factor;
  }
  for (nlohmann::json& sample : kernel["samples_ms"]) sample = sample.get<double>() * factor;
}

void set_samples(nlohmann::json& cell, const std::vector<double>& samples, double median) {
  cell["time"]["kernel"]["samples_ms"] = samples;
  cell["time"]["kernel"]["median_ms"] = median;
  cell["time"]["kernel"]["repetitions"] = samples.size();
}

// One real run (2 workloads x 2 sizes x 2 plugins, 10 repetitions), shared by the tests, which
// write changed copies of it.
class Compare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<TempFolder>();
    // One variant per plugin and workload: 8 cells.
    CommandResult r =
        run_harness({"-p", "cpu_serial,openmp", "-w", "reduce,scan", "-s", "2^10,2^12", "-v",
                     "loop,parallel_for,two_pass", "-r", "10", "--json", base_path(), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  static void TearDownTestSuite() { folder_.reset(); }

  static std::string base_path() { return folder_->file("base.json"); }
  // The tests give cells the times they compare; whether the machine was busy while the real run
  // measured them (other tests run beside this one) is left out, as a quiet machine would have it,
  // and so are the rounds' reference passes (the time, not the time over the reference, decides).
  static std::string base_run_id() { return read_json(base_path())["context"].value("run_id", ""); }
  static nlohmann::json base() {
    nlohmann::json document = read_json(base_path());
    for (nlohmann::json& cell : document["results"]) {
      cell.erase("machine_load");
      cell.erase("rounds");
    }
    return document;
  }
  // Writes `document` beside the base file, as a run of its own: each file a test writes stands
  // for another run (compare refuses one run given twice on a side), so one that still has the
  // base's run id gets its own. A test that sets or removes the run id keeps what it set.
  static std::string write(const std::string& name, nlohmann::json document) {
    std::string path = folder_->file(name);
    if (document["context"].value("run_id", "") == base_run_id()) {
      char id[17];
      std::snprintf(id, sizeof id, "%016zx", std::hash<std::string>{}(name));
      document["context"]["run_id"] = id;
    }
    write_text(path, document.dump(2));
    return path;
  }

  static std::unique_ptr<TempFolder> folder_;
};
std::unique_ptr<TempFolder> Compare::folder_;

TEST_F(Compare, AFileAgainstItselfIsAllSameAndExitsZero) {
  CommandResult r = run_harness({"compare", base_path(), base_path()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "8 cells compared: 0 faster, 0 slower, 8 same")) << r.out;
  EXPECT_TRUE(contains(r.out, "Mann-Whitney U")) << r.out;
  EXPECT_FALSE(contains(r.out, "Different machines")) << r.out;
  // Said, since a run against itself shows nothing of the code or the machine.
  EXPECT_TRUE(contains(r.err, "compared with itself")) << r.err;

  CommandResult csv = run_harness({"compare", base_path(), base_path(), "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 0);
  auto rows = csv_rows(csv.out);
  ASSERT_EQ(rows.size(), 8u) << csv.out;
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("verdict"), "same");
    EXPECT_EQ(row.at("ratio"), "1.000");
    EXPECT_EQ(row.at("p_value"), "1");
  }
}

// Several runs a side count runs: one run given twice on a side (the same file, or a copy of it,
// which keeps its run id) would count as two replications, and is refused.
TEST_F(Compare, OneRunGivenTwiceOnASideIsRefused) {
  const std::string copy = folder_->file("copy_of_base.json");
  write_text(copy, plugbench::testing::read_text(base_path()));
  const std::string other = write("other.json", base());
  for (const std::string& twice : {base_path(), copy}) {
    CommandResult r =
        run_harness({"compare", "--base", base_path(), "--base", twice, "--new", other});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "given twice on one side")) << r.err;
  }
  CommandResult fine = run_harness({"compare", "--base", base_path(), "--new", other});
  EXPECT_EQ(fine.exit_code, 0) << fine.out << fine.err;
  EXPECT_FALSE(contains(fine.err, "one run")) << fine.err;
}

// A threshold of 100 % or more is taken (150 % below lets a 2x cell pass) but said, since 5 for
// 5 % would call every cell the same.
TEST_F(Compare, AThresholdOfAHundredPercentOrMoreIsSaid) {
  CommandResult r = run_harness({"compare", base_path(), base_path(), "--threshold", "5"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: --threshold 5.00 is 500 %")) << r.err;
  EXPECT_TRUE(contains(r.err, "0.05 for 5 %")) << r.err;
  CommandResult usual = run_harness({"compare", base_path(), base_path(), "--threshold", "0.5"});
  EXPECT_FALSE(contains(usual.err, "--threshold")) << usual.err;
}

TEST_F(Compare, ACellTwiceAsSlowIsARegressionPastTheThreshold) {
  // This machine is shared and its repetitions overlap even at twice the time: the cell gets the
  // steady repetitions of a quiet machine, then a copy of the file has them doubled. Ten a side:
  // five could not reach p < 0.05 over the file's 8 cells (Holm).
  nlohmann::json steady = base();
  set_samples(cell_of(steady, "reduce", "openmp", 4096),
              {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09}, 1.045);
  std::string steady_path = write("steady.json", steady);
  nlohmann::json slower = steady;
  scale_kernel_time(cell_of(slower, "reduce", "openmp", 4096), 2.0);
  std::string path = write("slower.json", slower);

  CommandResult r = run_harness({"compare", steady_path, path, "--format", "csv"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto rows = csv_rows(r.out);
  ASSERT_EQ(rows.size(), 8u);
  const auto& cell = row_for(rows, "reduce", "openmp", "4096");
  EXPECT_EQ(cell.at("verdict"), "slower");
  EXPECT_EQ(cell.at("ratio"), "2.000");
  EXPECT_EQ(cell.at("p_value"), "0.00018");  // 10 against 10, no overlap
  EXPECT_EQ(cell.at("p_holm"), "0.0015");    // times the 8 cells compared
  // The Moses interval: the 24th smallest and largest of the 100 new/base ratios of samples.
  EXPECT_EQ(cell.at("ratio_interval"), "1.943..2.059");
  for (const auto& row : rows) {
    if (&row != &cell) {
      EXPECT_EQ(row.at("verdict"), "same") << row.at("plugin");
    }
  }
  CommandResult console = run_harness({"compare", steady_path, path});
  EXPECT_EQ(console.exit_code, 1);
  EXPECT_TRUE(contains(console.out,
                       "REGRESSION reduce mod100 n=4096 openmp/parallel_for: 2.00x the base time"))
      << console.out;

  // A threshold of 150% lets it pass; the other way round it is faster, which is no regression.
  EXPECT_EQ(run_harness({"compare", steady_path, path, "--threshold", "1.5"}).exit_code, 0);
  CommandResult faster = run_harness({"compare", path, steady_path, "--format", "csv"});
  EXPECT_EQ(faster.exit_code, 0);
  EXPECT_EQ(row_for(csv_rows(faster.out), "reduce", "openmp", "4096").at("verdict"), "faster");
}

// A cell measured while other processes took the machine may be slow because of them: compare
// calls it too noisy, says why, and it is no regression.
TEST_F(Compare, ACellMeasuredOnABusyMachineIsTooNoisyNotSlower) {
  nlohmann::json steady = base();
  set_samples(cell_of(steady, "reduce", "openmp", 4096),
              {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09}, 1.045);
  std::string steady_path = write("steady_quiet.json", steady);
  nlohmann::json slower = steady;
  nlohmann::json& cell = cell_of(slower, "reduce", "openmp", 4096);
  scale_kernel_time(cell, 2.0);
  cell["machine_load"] = {{"others_cpu_share", 0.42},
                          {"steal_share", 0.0},
                          {"load_average", 3.1},
                          {"judged", true},
                          {"busy", true}};
  std::string busy_path = write("slower_busy.json", slower);

  CommandResult r = run_harness({"compare", steady_path, busy_path, "--format", "csv"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto rows = csv_rows(r.out);
  const auto& row = row_for(rows, "reduce", "openmp", "4096");
  EXPECT_EQ(row.at("verdict"), "too noisy");
  EXPECT_EQ(row.at("why"),
            "the machine was busy while the new run measured it: other processes used 42 % of "
            "the CPUs, steal 0 %");
  // The same file without the busy mark is the regression it looks like.
  cell["machine_load"]["busy"] = false;
  EXPECT_EQ(run_harness({"compare", steady_path, write("slower_quiet.json", slower)}).exit_code, 1);
}

// Some plugins, workloads or sizes only, and only the cells both files hold: how two machines with
// different plugin sets are compared on what they share.
TEST_F(Compare, FiltersAndMatchedOnlyKeepTheCellsAsked) {
  nlohmann::json fewer = base();
  nlohmann::json& results = fewer["results"];
  results.erase(std::remove_if(results.begin(), results.end(),
                               [](const nlohmann::json& cell) {
                                 return cell["workload"] == "scan" && cell["n"] == 1024;
                               }),
                results.end());
  const std::string fewer_path = write("fewer.json", fewer);
  auto rows_of = [&](std::vector<std::string> extra) {
    std::vector<std::string> arguments = {"compare", base_path(), fewer_path, "--format", "csv"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    CommandResult r = run_harness(arguments);
    EXPECT_NE(r.exit_code, 2) << r.err;
    return csv_rows(r.out);
  };
  EXPECT_EQ(rows_of({}).size(), 8u);  // 2 cells only in base among them
  EXPECT_EQ(rows_of({"--matched-only"}).size(), 6u);
  for (const auto& row : rows_of({"-p", "openmp"})) EXPECT_EQ(row.at("plugin"), "openmp");
  EXPECT_EQ(rows_of({"-p", "openmp"}).size(), 4u);
  for (const auto& row : rows_of({"-w", "reduce", "-s", "2^12"})) {
    EXPECT_EQ(row.at("workload"), "reduce");
    EXPECT_EQ(row.at("n"), "4096");
  }
  EXPECT_EQ(rows_of({"-w", "reduce", "-s", "2^12"}).size(), 2u);
  EXPECT_EQ(rows_of({"-w", "scan", "--matched-only"}).size(), 2u);
  // A size it cannot read is a usage error.
  EXPECT_EQ(run_harness({"compare", base_path(), fewer_path, "-s", "2^x"}).exit_code, 2);
}

TEST_F(Compare, NoisyRepetitionsAreTooNoisyToSay) {
  nlohmann::json noisy_base = base();
  nlohmann::json noisy = base();
  // Medians 20% apart, but the repetitions overlap: p = 0.68.
  set_samples(cell_of(noisy_base, "scan", "cpu_serial", 1024), {1, 2, 3, 4, 5}, 3);
  set_samples(cell_of(noisy, "scan", "cpu_serial", 1024), {1.2, 2.4, 3.6, 4.8, 6.0}, 3.6);
  // Twice as slow and no overlap, but 3 repetitions a side cannot reach p < 0.05.
  set_samples(cell_of(noisy_base, "scan", "openmp", 1024), {1, 2, 3}, 2);
  set_samples(cell_of(noisy, "scan", "openmp", 1024), {4, 5, 6}, 5);
  std::string base_file = write("noisy_base.json", noisy_base);
  std::string new_file = write("noisy.json", noisy);

  CommandResult r = run_harness({"compare", base_file, new_file, "--format", "csv"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto rows = csv_rows(r.out);
  const auto& overlapping = row_for(rows, "scan", "cpu_serial", "1024");
  EXPECT_EQ(overlapping.at("verdict"), "too noisy");
  EXPECT_EQ(overlapping.at("ratio"), "1.200");
  EXPECT_EQ(overlapping.at("p_value"), "0.68");
  const auto& few = row_for(rows, "scan", "openmp", "1024");
  EXPECT_EQ(few.at("verdict"), "too noisy");
  EXPECT_EQ(few.at("why"),
            "3 and 3 repetitions are too few to reach p < 0.05 over the 8 cells compared");
  // 3 against 3 give p = 0.081 at best, 0.65 after Holm over 8 cells: a family level of 0.7
  // lets the second one through as slower.
  EXPECT_EQ(run_harness({"compare", base_file, new_file, "--alpha", "0.1"}).exit_code, 0);
  EXPECT_EQ(run_harness({"compare", base_file, new_file, "--alpha", "0.7"}).exit_code, 1);
}

TEST_F(Compare, CellsOnOneSideOnlyAreListed) {
  nlohmann::json changed = base();
  nlohmann::json& cells = changed["results"];
  nlohmann::json extra = cells[0];
  extra["plugin"] = "cuda_naive";
  extra["memory_space"] = "device";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i]["plugin"] == "openmp" && cells[i]["workload"] == "scan" && cells[i]["n"] == 4096) {
      cells.erase(i);
      break;
    }
  }
  cells.push_back(extra);
  std::string path = write("missing.json", changed);

  CommandResult r = run_harness({"compare", base_path(), path});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "7 cells compared")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 only in base, 1 only in new")) << r.out;
  auto rows = csv_rows(run_harness({"compare", base_path(), path, "--format", "csv"}).out);
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(row_for(rows, "scan", "openmp", "4096").at("verdict"), "only in base");
  EXPECT_EQ(row_for(rows, "scan", "openmp", "4096").at("new_ms"), "");
  EXPECT_EQ(row_for(rows, "reduce", "cuda_naive", "1024").at("verdict"), "only in new");
}

TEST_F(Compare, AWrongAnswerOnEitherSideIsShownNeverCompared) {
  nlohmann::json wrong = base();
  nlohmann::json& cell = cell_of(wrong, "reduce", "cpu_serial", 1024);
  cell["status"] = "failed";
  cell["message"] = "wrong answer: sum 41 instead of 42";
  std::string path = write("wrong.json", wrong);

  CommandResult r = run_harness({"compare", base_path(), path, "--format", "csv"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto rows = csv_rows(r.out);
  const auto& row = row_for(rows, "reduce", "cpu_serial", "1024");
  EXPECT_EQ(row.at("verdict"), "FAILED (new)");
  EXPECT_EQ(row.at("why"), "new: wrong answer: sum 41 instead of 42");
  EXPECT_EQ(row.at("ratio"), "");          // never turned into a ratio
  EXPECT_FALSE(row.at("new_ms").empty());  // but its time is shown

  // A plugin error where the base had a time is a regression too.
  nlohmann::json errored = base();
  nlohmann::json& broken = cell_of(errored, "scan", "openmp", 4096);
  broken["status"] = "error";
  broken["message"] = "cudaErrorIllegalAddress";
  broken["time"]["kernel"] = nullptr;
  CommandResult error = run_harness({"compare", base_path(), write("error.json", errored)});
  EXPECT_EQ(error.exit_code, 1) << error.out;
  EXPECT_TRUE(contains(error.out,
                       "REGRESSION scan small n=4096 openmp/two_pass: error in new: "
                       "cudaErrorIllegalAddress"))
      << error.out;

  CommandResult fixed = run_harness({"compare", path, base_path()});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out;
  EXPECT_TRUE(contains(fixed.out, "FAILED (base)")) << fixed.out;
  EXPECT_TRUE(contains(fixed.out, "1 failed verification")) << fixed.out;
}

TEST_F(Compare, MachinesThatDifferAreShownSideBySideAndPercentOfPeakIsCompared) {
  nlohmann::json other = base();
  other["context"]["host"]["name"] = "gpu-box";
  other["context"]["host"]["cpu"] = "AMD EPYC 9654 96-Core Processor";
  other["context"]["host"]["logical_cores"] = 16;
  other["context"]["build"]["compiler"] = "GNU 13.2.0";
  other["context"]["devices"] = {{{"index", 0},
                                  {"name", "NVIDIA H200"},
                                  {"memory_bytes", 150754820096},
                                  {"multiprocessors", 132},
                                  {"driver_version", "570.124"},
                                  {"runtime_version", "12.8"},
                                  {"reported_by", "cuda_naive"}}};
  for (nlohmann::json& peak : other["context"]["peaks"]) peak["gbps"] = 200.0;
  for (nlohmann::json& cell : other["results"]) {
    if (!cell["percent_of_peak"].is_null()) {
      cell["percent_of_peak"] = cell["percent_of_peak"].get<double>() / 2;
    }
  }
  std::string path = write("other_machine.json", other);

  // --wide: every value whole (within 120 columns a long one wraps).
  CommandResult r = run_harness({"compare", base_path(), path, "--wide"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(lines_of(r.out).at(1).rfind("Different machines (CPU, GPU differ)", 0), 0u)
      << "said at the top: " << r.out;
  nlohmann::json host = base()["context"]["host"];
  EXPECT_TRUE(contains(r.out, host["cpu"].get<std::string>())) << r.out;
  EXPECT_TRUE(contains(r.out, "AMD EPYC 9654 96-Core Processor (16 logical cores)")) << r.out;
  EXPECT_TRUE(contains(r.out, "NVIDIA H200")) << r.out;
  EXPECT_TRUE(contains(r.out, "570.124")) << r.out;
  EXPECT_TRUE(contains(r.out, "GNU 13.2.0")) << r.out;
  EXPECT_TRUE(contains(r.out, "gpu-box")) << r.out;
  EXPECT_TRUE(contains(r.out, "%peak new/base")) << r.out;
  EXPECT_TRUE(contains(r.out, "0.500")) << r.out;  // half the fraction of peak
}

// The same run under another CPU (a different core count), with one cell three times slower.
nlohmann::json on_another_cpu(nlohmann::json document) {
  document["context"]["host"]["logical_cores"] =
      document["context"]["host"]["logical_cores"].get<int>() + 14;
  nlohmann::json& slow = cell_of(document, "scan", "cpu_serial", 4096);
  set_samples(slow, {3.00, 3.03, 3.06, 3.09, 3.12, 3.15, 3.18, 3.21, 3.24, 3.27}, 3.135);
  return document;
}

TEST_F(Compare, OtherMachinesAreComparedNotJudged) {
  nlohmann::json steady = base();
  set_samples(cell_of(steady, "scan", "cpu_serial", 4096),
              {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09}, 1.045);
  const std::string base_file = write("steady_here.json", steady);
  const std::string other = write("three_times_there.json", on_another_cpu(steady));

  CommandResult r = run_harness({"compare", base_file, other});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "REGRESSION")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 slower")) << r.out;
  EXPECT_TRUE(contains(r.out, "(different machines: no slower cell called a regression)")) << r.out;
  // Both hosts are called the same: the machines are named by their CPUs.
  const std::string host = steady["context"]["host"]["name"];
  const int cores = steady["context"]["host"]["logical_cores"];
  EXPECT_TRUE(contains(r.out, host + ": " + std::to_string(cores) + " logical cores, no GPU"))
      << r.out;
  EXPECT_TRUE(contains(r.out, host + ": " + std::to_string(cores + 14) + " logical cores, no GPU"))
      << r.out;

  CommandResult judged =
      run_harness({"compare", base_file, other, "--regressions-across-machines"});
  EXPECT_EQ(judged.exit_code, 1) << judged.out;
  EXPECT_TRUE(contains(judged.out, "REGRESSION scan small n=4096 cpu_serial/loop: 3.00x"))
      << judged.out;

  // A wrong answer is the code's on any machine.
  nlohmann::json wrong = on_another_cpu(steady);
  nlohmann::json& cell = cell_of(wrong, "reduce", "openmp", 1024);
  cell["status"] = "failed";
  cell["message"] = "sum 41 instead of 42";
  CommandResult failed = run_harness({"compare", base_file, write("wrong_there.json", wrong)});
  EXPECT_EQ(failed.exit_code, 1) << failed.out;
  EXPECT_TRUE(contains(failed.out, "REGRESSION reduce mod100 n=1024 openmp/parallel_for"))
      << failed.out;
}

// A terminal's 120 columns: the committed H200 run against the committed 2-core run (many
// plugins, long variant names, machines that differ) wraps its titles and texts to fit; only the
// summary, a line for scripts, may be longer. --wide keeps every column.
TEST(CompareCommitted, TheConsoleOutputFitsOneHundredTwentyColumns) {
  const std::string h200 = std::string(PLUGBENCH_SOURCE_DIR) + "/results/h200/default.json";
  const std::string two_core =
      std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json";
  CommandResult r = run_harness({"compare", h200, two_core});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const std::string& line : lines_of(r.out)) {
    if (contains(line, " against ") && contains(line, "cells compared")) continue;
    EXPECT_LE(line.size(), 120u) << line;
  }
  EXPECT_FALSE(contains(r.out, "p Holm")) << r.out;
  CommandResult wide = run_harness({"compare", h200, two_core, "--wide"});
  EXPECT_TRUE(contains(wide.out, "p Holm")) << wide.out;
  EXPECT_TRUE(contains(wide.out, "on time (U over samples)")) << wide.out;
}

// Several runs a side (made in alternation, A B A B): the runs are the replication, Welch's t over
// each run's log median decides, and a difference the runs do not agree on is too noisy.
TEST_F(Compare, SeveralRunsASideAreComparedOverTheRuns) {
  auto run_with = [&](const std::string& name, double openmp_factor, double all_factor) {
    nlohmann::json run = base();
    for (nlohmann::json& cell : run["results"]) scale_kernel_time(cell, all_factor);
    scale_kernel_time(cell_of(run, "reduce", "openmp", 4096), openmp_factor);
    return write(name, run);
  };
  // The runs of a side differ by 1-2 %; the new side's openmp reduce at 2^12 takes 1.5x.
  const std::vector<std::string> arguments = {"compare",
                                              "--base",
                                              run_with("a1.json", 1.0, 1.00),
                                              "--base",
                                              run_with("a2.json", 1.0, 1.02),
                                              "--base",
                                              run_with("a3.json", 1.0, 0.99),
                                              "--new",
                                              run_with("b1.json", 1.5, 1.01),
                                              "--new",
                                              run_with("b2.json", 1.5, 0.98),
                                              "--new",
                                              run_with("b3.json", 1.5, 1.02),
                                              "--format",
                                              "csv"};
  CommandResult r = run_harness(arguments);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto rows = csv_rows(r.out);
  ASSERT_EQ(rows.size(), 8u) << r.out;
  for (const auto& row : rows) {
    const bool changed =
        row.at("workload") == "reduce" && row.at("plugin") == "openmp" && row.at("n") == "4096";
    EXPECT_EQ(row.at("verdict"), changed ? "slower" : "same") << row.at("plugin");
    if (changed) {
      EXPECT_EQ(row.at("why"), "on time (t over runs)");
    }
  }
  // The same runs as two files each compared alone would not see the runs' spread: the
  // heading names every run of each side.
  CommandResult console =
      run_harness(std::vector<std::string>(arguments.begin(), arguments.end() - 2));
  EXPECT_TRUE(contains(console.out, "(3 runs)")) << console.out;
  EXPECT_TRUE(contains(console.out, "Welch's t")) << console.out;
  EXPECT_TRUE(contains(console.out, "REGRESSION reduce mod100 n=4096 openmp/parallel_for: 1.5"))
      << console.out;
  // --base goes with --new, and files by position do not mix with them.
  EXPECT_EQ(run_harness({"compare", "--base", base_path()}).exit_code, 2);
  CommandResult mixed =
      run_harness({"compare", base_path(), "--base", base_path(), "--new", base_path()});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_TRUE(contains(mixed.err, "name every file with one of them")) << mixed.err;
}

// Host cells measured in rounds carry each round's pass of their reference loop, which may veto a
// verdict and never makes one: a machine that lost a quarter of its bandwidth between the runs
// (every sample and every pass 1.33x as long) has no slower kernel, a loop that slowed alone makes
// no kernel faster, and a kernel that slowed alone is slower.
TEST_F(Compare, TheReferenceLoopVetoesAVerdictWhereItMovedAsMuch) {
  nlohmann::json run = read_json(base_path());
  for (nlohmann::json& cell : run["results"]) {
    cell.erase("machine_load");
    // Steady passes: a quick calibration's loop fits in the caches and jitters.
    for (nlohmann::json& pass : cell["rounds"]["reference"]["samples_ms"]) pass = 40.0;
    // Steady samples too (the real run's jitter with other tests beside it): ten a side 1.33x
    // apart are then called slower by the time alone, so a verdict withheld is the loop's veto.
    const double median = cell["time"]["kernel"]["median_ms"].get<double>();
    std::vector<double> steady;
    for (int i = 0; i < 10; ++i) steady.push_back(median * (1.0 + 0.01 * (i - 4.5)));
    set_samples(cell, steady, median);
  }
  const nlohmann::json first = cell_of(run, "reduce", "openmp", 4096);
  ASSERT_TRUE(first.contains("rounds") && first["rounds"].contains("reference")) << first.dump();
  const std::string base_file = write("rounds_base.json", run);
  std::string base_file_steady;
  nlohmann::json slower_machine = run;
  for (nlohmann::json& cell : slower_machine["results"]) {
    scale_kernel_time(cell, 4.0 / 3);
    for (nlohmann::json& pass : cell["rounds"]["reference"]["samples_ms"]) {
      pass = pass.get<double>() * 4.0 / 3;
    }
  }
  CommandResult machine = run_harness(
      {"compare", base_file, write("slower_machine.json", slower_machine), "--format", "csv"});
  EXPECT_EQ(machine.exit_code, 0) << machine.out << machine.err;
  int vetoed = 0;
  for (const auto& row : csv_rows(machine.out)) {
    EXPECT_NE(row.at("verdict"), "slower") << row.at("plugin") << " " << row.at("why");
    EXPECT_EQ(row.at("ratio"), "1.333");
    EXPECT_EQ(row.at("normalized_ratio"), "1.000");
    vetoed += contains(row.at("why"), "the reference loop moved as much between the runs") ? 1 : 0;
  }
  EXPECT_GT(vetoed, 0) << machine.out;  // a cell the test alone would have called slower
  // The loop alone slowed (a neighbour on its cores): over it every kernel looks 25 % faster,
  // but no time moved, so no cell is called faster.
  nlohmann::json slower_loop = run;
  for (nlohmann::json& cell : slower_loop["results"]) {
    for (nlohmann::json& pass : cell["rounds"]["reference"]["samples_ms"]) pass = 50.0;
  }
  CommandResult loop = run_harness(
      {"compare", base_file, write("slower_loop.json", slower_loop), "--format", "csv"});
  EXPECT_EQ(loop.exit_code, 0) << loop.out << loop.err;
  for (const auto& row : csv_rows(loop.out)) {
    EXPECT_EQ(row.at("verdict"), "same") << row.at("plugin") << " " << row.at("why");
    EXPECT_EQ(row.at("normalized_ratio"), "0.800");
  }
  nlohmann::json slower_kernel = run;
  nlohmann::json& changed = cell_of(slower_kernel, "reduce", "openmp", 4096);
  // Steady samples too (ten a side reach p < 0.05 over 8 cells): this machine's overlap at 1.5x.
  set_samples(changed, {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09}, 1.045);
  cell_of(run, "reduce", "openmp", 4096) = changed;
  base_file_steady = write("rounds_base_steady.json", run);
  scale_kernel_time(changed, 1.5);
  CommandResult kernel = run_harness(
      {"compare", base_file_steady, write("slower_kernel.json", slower_kernel), "--format", "csv"});
  EXPECT_EQ(kernel.exit_code, 1) << kernel.out << kernel.err;
  const auto rows = csv_rows(kernel.out);
  const auto& row = row_for(rows, "reduce", "openmp", "4096");
  EXPECT_EQ(row.at("verdict"), "slower");
  EXPECT_EQ(row.at("normalized_ratio"), "1.500");
  EXPECT_EQ(row.at("why"), "on time (U over samples)");
}

// Several runs a side, each measured in rounds beside its baseline: the runs' level moves by a
// quarter (the whole machine's state), which hides a 15 % slowdown from a test over the times;
// the cell's time over the baseline's in the same rounds moves by 0.5 % between runs and shows it,
// where the cell and its baseline are of a kind (here both one thread on the host). Where the
// baseline is another library in the new runs (rebuilt), it does not decide where the baseline's
// own time surely moved (10 % slower in runs that agree: the ratio over it no longer is the
// cell's change), and where a baseline 10 % slower cannot be told from the runs' spread it decides
// only where the cell's own time already differs; with one library on both sides the baseline's
// move is the machine's and the ratio decides. Never where the cell's team is not the baseline's.
TEST_F(Compare, ACellIsDecidedOverItsBaselineWhereTheyAreOfAKind) {
  // factor: every cell of the run; changed: the openmp reduce at 2^12 besides; baseline: the
  // baseline's reduce at 2^12 besides; threads: the openmp cell's team; jitter: the run's
  // per-round ratio noise; loop: the reference loop's passes over the run's level (0: no loop).
  // library: the baseline plugin's library in this run: as measured, another one (its recorded
  // checksum differs), or none recorded (a file from before the checksum).
  enum class Library { same, rebuilt, unrecorded };
  auto run_with = [&](const std::string& name, double factor, double changed, double baseline,
                      int threads, double jitter, double loop, Library library) {
    nlohmann::json run = read_json(base_path());
    for (nlohmann::json& plugin : run["context"]["plugins"]) {
      EXPECT_TRUE(plugin.contains("library_checksum")) << plugin.dump();
      if (plugin["name"] != "cpu_serial") continue;
      if (library == Library::rebuilt) plugin["library_checksum"] = "crc32:0badc0de";
      if (library == Library::unrecorded) plugin.erase("library_checksum");
    }
    for (nlohmann::json& cell : run["results"]) {
      cell.erase("machine_load");
      if (loop == 0) {
        cell["rounds"].erase("reference");
      } else {
        // Steady passes (a quick calibration's loop fits in the caches and jitters).
        for (nlohmann::json& pass : cell["rounds"]["reference"]["samples_ms"]) {
          pass = 40.0 * factor * loop;
        }
      }
      scale_kernel_time(cell, factor);
      if (cell.contains("paired") && cell["baseline"] != cell["plugin"].get<std::string>() + "/" +
                                                             cell["variant"].get<std::string>()) {
        for (const char* key : {"median", "low", "high"}) {
          cell["paired"]["speedup"][key] = cell["paired"]["speedup"][key].get<double>() / jitter;
        }
      }
    }
    nlohmann::json& cell = cell_of(run, "reduce", "openmp", 4096);
    EXPECT_TRUE(cell.contains("paired") && cell["rounds"].is_object()) << cell.dump();
    EXPECT_EQ(cell_of(run, "reduce", "cpu_serial", 4096)["team"]["threads"], 1);
    cell["team"]["threads"] = threads;
    scale_kernel_time(cell, changed);
    scale_kernel_time(cell_of(run, "reduce", "cpu_serial", 4096), baseline);
    for (const char* key : {"median", "low", "high"}) {
      cell["paired"]["speedup"][key] =
          cell["paired"]["speedup"][key].get<double>() * baseline / changed;
    }
    return write(name, run);
  };
  // The same levels on both sides, in another order: the runs' spread, no shift between sides.
  const std::vector<double> wandering = {1.0, 1.3, 0.8}, steady = {1.0, 1.01, 0.99};
  // baseline_by_run: the baseline's factor in each new run, where it differs from run to run.
  auto compare = [&](const std::string& tag, double baseline, int threads,
                     const std::vector<double>& levels, double new_loop = 0,
                     const std::vector<double>& baseline_by_run = {},
                     Library library = Library::same) {
    const std::vector<double> base_levels = levels, new_levels = {levels[1], levels[2], levels[0]};
    const std::vector<double> jitters = {1.0, 1.005, 0.995};
    std::vector<std::string> arguments = {"compare", "--format", "csv"};
    for (int i = 0; i < 3; ++i) {
      const std::string number = std::to_string(i);
      arguments.insert(arguments.end(),
                       {"--base",
                        run_with(tag + "a" + number + ".json", base_levels[i], 1.0, 1.0, threads,
                                 jitters[i], new_loop == 0 ? 0 : 1,
                                 library == Library::unrecorded ? library : Library::same),
                        "--new",
                        run_with(tag + "b" + number + ".json", new_levels[i], 1.15,
                                 baseline_by_run.empty() ? baseline : baseline_by_run[i], threads,
                                 jitters[2 - i], new_loop, library)});
    }
    return run_harness(arguments);
  };
  CommandResult slowed = compare("paired_", 1.0, 1, wandering);
  EXPECT_EQ(slowed.exit_code, 1) << slowed.out << slowed.err;
  for (const auto& row : csv_rows(slowed.out)) {
    const bool changed =
        row.at("workload") == "reduce" && row.at("plugin") == "openmp" && row.at("n") == "4096";
    if (changed) {
      EXPECT_EQ(row.at("verdict"), "slower") << row.at("why");
      EXPECT_EQ(row.at("why"), "on time over cpu_serial/loop's in the same rounds (t over runs)");
      EXPECT_EQ(row.at("paired_ratio"), "1.150");
    } else {
      // The runs' levels alone: nothing beyond the test (too noisy or same), never a verdict.
      EXPECT_TRUE(row.at("verdict") == "same" || row.at("verdict") == "too noisy")
          << row.at("plugin") << " " << row.at("why");
    }
  }
  CommandResult moved = compare("moved_", 1.10, 1, steady, 0, {}, Library::rebuilt);
  EXPECT_EQ(moved.exit_code, 1) << moved.out << moved.err;
  const auto rows = csv_rows(moved.out);
  EXPECT_EQ(row_for(rows, "reduce", "cpu_serial", "4096").at("verdict"), "slower");
  const auto& row = row_for(rows, "reduce", "openmp", "4096");
  // Decided on the time alone, which the steady runs show 15 % slower.
  EXPECT_EQ(row.at("verdict"), "slower") << row.at("why");
  EXPECT_EQ(row.at("why"), "on time (t over runs)");
  EXPECT_EQ(row.at("paired_ratio"), "1.045");
  // The baseline itself has no ratio over itself.
  EXPECT_EQ(row_for(rows, "reduce", "cpu_serial", "4096").at("paired_ratio"), "");
  // The baseline 10 % slower amid the runs' spread, the cell's own time too noisy to tell: the
  // baseline may have moved, so its ratio does not decide (it would make the cell's change).
  CommandResult hidden = compare("hidden_", 1.10, 1, wandering, 0, {}, Library::rebuilt);
  EXPECT_EQ(hidden.exit_code, 0) << hidden.out << hidden.err;
  const auto hidden_rows = csv_rows(hidden.out);
  const auto& hidden_row = row_for(hidden_rows, "reduce", "openmp", "4096");
  EXPECT_EQ(hidden_row.at("verdict"), "too noisy") << hidden_row.at("why");
  EXPECT_TRUE(
      contains(hidden_row.at("why"), "not over cpu_serial/loop: its own time moved (1.100, "))
      << hidden_row.at("why");
  // Steady runs, the cell's time 15 % slower beyond doubt, the baseline's own runs spread across
  // the threshold (1.30, 0.92, 1.12): the ratio over it is taken where the time already differs,
  // and here it disagrees with the time, so the cell is too noisy, not slower.
  CommandResult spread =
      compare("spread_", 1.0, 1, steady, 0, {1.30, 0.92, 1.12}, Library::rebuilt);
  EXPECT_EQ(spread.exit_code, 0) << spread.out << spread.err;
  const auto spread_rows = csv_rows(spread.out);
  const auto& spread_row = row_for(spread_rows, "reduce", "openmp", "4096");
  EXPECT_EQ(spread_row.at("verdict"), "too noisy") << spread_row.at("why");
  EXPECT_TRUE(contains(spread_row.at("why"), "they disagree")) << spread_row.at("why");
  // The baseline 6 % slower amid the runs' spread, the cell 15 % slower, its time too noisy alone:
  // with one baseline library on both sides the baseline's move is the machine's, and over it the
  // cell is slower (1.15 / 1.06); with another library, or none recorded, it may be the code's, so
  // the ratio does not decide.
  for (const Library library : {Library::same, Library::rebuilt, Library::unrecorded}) {
    const std::string tag = "library" + std::to_string(static_cast<int>(library)) + "_";
    CommandResult result = compare(tag, 1.06, 1, wandering, 0, {}, library);
    const auto result_rows = csv_rows(result.out);
    const auto& result_row = row_for(result_rows, "reduce", "openmp", "4096");
    if (library == Library::same) {
      EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
      EXPECT_EQ(result_row.at("verdict"), "slower") << result_row.at("why");
      EXPECT_EQ(result_row.at("why"),
                "on time over cpu_serial/loop's in the same rounds (t over runs)");
    } else {
      EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
      EXPECT_EQ(result_row.at("verdict"), "too noisy") << result_row.at("why");
      EXPECT_TRUE(contains(result_row.at("why"), "its own time moved (1.060, 0.611..1.839)"))
          << result_row.at("why");
    }
  }
  // The reference loop slowed as much as the cell (another kernel, moving apart from it): over a
  // baseline of the cell's kind in the same rounds the machine's state is divided out already, so
  // the loop does not veto there.
  CommandResult loop = compare("loop_", 1.0, 1, wandering, 1.15);
  EXPECT_EQ(loop.exit_code, 1) << loop.out << loop.err;
  const auto loop_rows = csv_rows(loop.out);
  const auto& loop_row = row_for(loop_rows, "reduce", "openmp", "4096");
  EXPECT_EQ(loop_row.at("verdict"), "slower") << loop_row.at("why");
  EXPECT_EQ(loop_row.at("normalized_ratio"), "1.000");
  EXPECT_EQ(loop_row.at("why"), "on time over cpu_serial/loop's in the same rounds (t over runs)");
  CommandResult other_kind = compare("team_", 1.0, 4, wandering);
  EXPECT_EQ(other_kind.exit_code, 0) << other_kind.out << other_kind.err;
  const auto team_rows = csv_rows(other_kind.out);
  const auto& team_row = row_for(team_rows, "reduce", "openmp", "4096");
  EXPECT_EQ(team_row.at("verdict"), "too noisy") << team_row.at("why");
  EXPECT_EQ(team_row.at("paired_ratio"), "1.150");
  EXPECT_FALSE(contains(team_row.at("why"), "in the same rounds")) << team_row.at("why");
}

// One run a side cannot see how much runs differ; --history gives the test each cell's earlier
// runs on the same machine. A machine whose runs wander by a fifth calls nothing where the samples
// alone call every cell; where runs agree within 1 %, a cell 15 % slower is slower over them.
TEST_F(Compare, OneRunASideIsJudgedOverTheHistorysEarlierRuns) {
  auto run_with = [&](const std::string& name, const std::string& time, double all_factor,
                      double openmp_factor) {
    nlohmann::json run = base();
    run["context"]["time"] = time;  // a run of its own in the history
    // Samples within 2 % of the median, as on a quiet machine: the test over the samples alone
    // then calls a 1.2x drift whatever the spread of the real run the files were made from.
    for (nlohmann::json& cell : run["results"]) {
      const double median = cell["time"]["kernel"]["median_ms"].get<double>();
      std::vector<double> samples;
      for (int i = 0; i < 10; ++i) samples.push_back(median * (0.99 + 0.002 * i));
      set_samples(cell, samples, median);
      scale_kernel_time(cell, all_factor);
    }
    scale_kernel_time(cell_of(run, "reduce", "openmp", 4096), openmp_factor);
    return write(name, run);
  };
  auto history_of = [&](const std::string& name, const std::vector<double>& levels) {
    const std::string database = folder_->file(name);
    std::vector<std::string> add = {"history", "add", "--history", database};
    for (std::size_t i = 0; i < levels.size(); ++i) {
      add.push_back(run_with(name + std::to_string(i) + ".json",
                             "2026-01-0" + std::to_string(i + 1) + "T00:00:00Z", levels[i], 1.0));
    }
    CommandResult added = run_harness(add);
    EXPECT_EQ(added.exit_code, 0) << added.out << added.err;
    return database;
  };
  const std::string old_run = run_with("old.json", "2026-02-01T00:00:00Z", 1.0, 1.0);

  // Runs that wander by a fifth; the new run 1.2x every cell's time.
  const std::string wandering = history_of("wandering.sqlite", {1.0, 1.25, 0.8, 1.1});
  const std::string drifted = run_with("drifted.json", "2026-02-02T00:00:00Z", 1.2, 1.0);
  CommandResult alone = run_harness({"compare", old_run, drifted, "--format", "csv"});
  EXPECT_EQ(alone.exit_code, 1) << alone.out << alone.err;  // the samples see no run's spread
  CommandResult over =
      run_harness({"compare", old_run, drifted, "--format", "csv", "--history", wandering});
  EXPECT_EQ(over.exit_code, 0) << over.out << over.err;
  for (const auto& row : csv_rows(over.out)) {
    EXPECT_EQ(row.at("verdict"), "too noisy") << row.at("plugin") << " " << row.at("why");
    EXPECT_TRUE(contains(row.at("why"), "t over the history's runs")) << row.at("why");
  }

  // Runs within 1 % of each other; the new run's openmp reduce at 2^12 takes 1.15x.
  const std::string steady = history_of("steady.sqlite", {1.0, 1.01, 0.99, 1.005});
  const std::string slowed = run_with("slowed.json", "2026-02-03T00:00:00Z", 1.0, 1.15);
  CommandResult called =
      run_harness({"compare", old_run, slowed, "--format", "csv", "--history", steady});
  EXPECT_EQ(called.exit_code, 1) << called.out << called.err;
  expect_only_openmp_reduce_4096_slower(csv_rows(called.out));
  EXPECT_EQ(row_for(csv_rows(called.out), "reduce", "openmp", "4096").at("why"),
            "on time (t over the history's runs)");
  // The compared files themselves, added to the history, are not their own earlier runs: the
  // heading counts the four.
  CommandResult added = run_harness({"history", "add", "--history", steady, old_run, slowed});
  EXPECT_EQ(added.exit_code, 0) << added.out << added.err;
  CommandResult console =
      run_harness({"compare", old_run, slowed, "--format", "md", "--history", steady});
  EXPECT_EQ(console.exit_code, 1) << console.out << console.err;
  EXPECT_TRUE(contains(console.out, "4 earlier runs of this machine in")) << console.out;

  EXPECT_TRUE(contains(console.out, "8 of the 8 cells tested had enough earlier runs"))
      << console.out;

  // A history that is not there, not a file, empty (compare never makes one) or not SQLite, or
  // several runs a side with one: exit 2, saying why.
  CommandResult missing =
      run_harness({"compare", old_run, slowed, "--history", folder_->file("none.sqlite")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "no history there")) << missing.err;
  CommandResult folder = run_harness({"compare", old_run, slowed, "--history", folder_->path()});
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_TRUE(contains(folder.err, "not a file")) << folder.err;
  const std::string empty = folder_->file("empty.sqlite");
  write_text(empty, "");
  CommandResult blank = run_harness({"compare", old_run, slowed, "--history", empty});
  EXPECT_EQ(blank.exit_code, 2);
  EXPECT_TRUE(contains(blank.err, "not a plugbench history")) << blank.err;
  EXPECT_EQ(read_text(empty), "");  // read only: left as it was
  CommandResult text = run_harness({"compare", old_run, slowed, "--history", old_run});
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_TRUE(contains(text.err, old_run)) << text.err;
  CommandResult runs = run_harness({"compare", "--base", old_run, "--base", drifted, "--new",
                                    slowed, "--new", slowed, "--history", steady});
  EXPECT_EQ(runs.exit_code, 2);
  EXPECT_TRUE(contains(runs.err, "--history is for one run a side")) << runs.err;
}

// Short runs one after another can start in the same second: each is a run of its own (its run id
// tells it apart, and in files made before the run id its rounds' seed), a run added twice is
// still one, and only the compared files' own runs are left out of their history.
TEST_F(Compare, EarlierRunsThatStartedInTheSameSecondAreEachCounted) {
  auto run_with = [&](const std::string& name, std::uint64_t seed) {
    nlohmann::json run = base();
    run["context"]["time"] = "2026-01-01T00:00:00Z";
    run["context"].erase("run_id");  // as files made before the run id: the seed tells them apart
    run["context"]["settings"]["order"] = "interleaved";
    run["context"]["settings"]["order_seed"] = seed;
    // Each run's own level, as runs have.
    scale_kernel_time(cell_of(run, "reduce", "openmp", 4096), 1.0 + 0.01 * seed);
    return write(name, run);
  };
  const std::string history = folder_->file("one_second.sqlite");
  std::vector<std::string> add = {"history", "add", "--history", history};
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    add.push_back(run_with("second" + std::to_string(seed) + ".json", seed));
  }
  // One of them again as another document (its command line rewritten): still one run.
  nlohmann::json again = read_json(folder_->file("second3.json"));
  again["context"]["command_line"] = "harness (copied)";
  add.push_back(write("second3_again.json", again));
  CommandResult added = run_harness(add);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;
  // The compared pair are two of the six (seeds 1 and 2): the other four are their history.
  CommandResult console =
      run_harness({"compare", folder_->file("second1.json"), folder_->file("second2.json"),
                   "--format", "md", "--history", history});
  EXPECT_EQ(console.exit_code, 0) << console.out << console.err;
  EXPECT_TRUE(contains(console.out, "4 earlier runs of this machine in")) << console.out;
  // Against a run of the same second that is not in the history: the five besides the base.
  const std::string later = run_with("second_later.json", 7);
  CommandResult over_five = run_harness(
      {"compare", folder_->file("second1.json"), later, "--format", "md", "--history", history});
  EXPECT_TRUE(contains(over_five.out, "5 earlier runs of this machine in")) << over_five.out;

  // Sequential runs have no seed: their run ids tell four runs of one second apart.
  const std::string sequential_history = folder_->file("sequential.sqlite");
  std::vector<std::string> add_sequential = {"history", "add", "--history", sequential_history};
  for (int i = 1; i <= 4; ++i) {
    nlohmann::json run = base();
    run["context"]["time"] = "2026-01-02T00:00:00Z";
    run["context"]["run_id"] = "00000000000000a" + std::to_string(i);
    run["context"]["settings"]["order"] = "sequential";
    run["context"]["settings"]["order_seed"] = nullptr;
    scale_kernel_time(cell_of(run, "reduce", "openmp", 4096), 1.0 + 0.01 * i);
    add_sequential.push_back(write("sequential" + std::to_string(i) + ".json", run));
  }
  CommandResult added_sequential = run_harness(add_sequential);
  ASSERT_EQ(added_sequential.exit_code, 0) << added_sequential.out << added_sequential.err;
  CommandResult over_two =
      run_harness({"compare", folder_->file("sequential1.json"), folder_->file("sequential2.json"),
                   "--format", "md", "--history", sequential_history});
  EXPECT_TRUE(contains(over_two.out, "2 earlier runs of this machine in")) << over_two.out;
}

// An earlier run made with another setting that changes times (here the cache warm, and a user's
// run beside the test suite's quick scale), or with a host plugin on other threads, measured
// something else: it is left out of the runs the test is over, and the heading says so. Counted
// in, their times would read as runs wandering by half.
TEST_F(Compare, EarlierRunsMadeWithOtherSettingsAreLeftOutOfTheHistorysRuns) {
  using Change = std::function<void(nlohmann::json&)>;
  auto run_with = [&](const std::string& name, const std::string& time, double all_factor,
                      double openmp_factor, const Change& change) {
    nlohmann::json run = base();
    run["context"]["time"] = time;
    for (nlohmann::json& cell : run["results"]) scale_kernel_time(cell, all_factor);
    scale_kernel_time(cell_of(run, "reduce", "openmp", 4096), openmp_factor);
    change(run);
    return write(name, run);
  };
  const Change nothing = [](nlohmann::json&) {};
  const Change warm = [](nlohmann::json& run) { run["context"]["settings"]["cache"] = "warm"; };
  // The base run is the test suite's (test_scale quick); a user's run has no test_scale.
  ASSERT_EQ(base()["context"]["settings"].value("test_scale", ""), "quick");
  const Change full_scale = [](nlohmann::json& run) {
    run["context"]["settings"].erase("test_scale");
  };
  const Change more_threads = [](nlohmann::json& run) {
    for (nlohmann::json& plugin : run["context"]["plugins"]) {
      if (plugin["name"] == "openmp") {
        plugin["process"]["openmp_threads"] = plugin["process"].value("openmp_threads", 1) + 7;
      }
    }
  };
  const std::string history = folder_->file("settings.sqlite");
  std::vector<std::string> add = {"history", "add", "--history", history};
  const std::vector<double> levels = {1.0, 1.01, 0.99, 1.005};
  for (std::size_t i = 0; i < levels.size(); ++i) {
    add.push_back(run_with("settings" + std::to_string(i) + ".json",
                           "2026-01-0" + std::to_string(i + 1) + "T00:00:00Z", levels[i], 1.0,
                           nothing));
  }
  add.push_back(run_with("warm.json", "2026-01-07T00:00:00Z", 0.5, 1.0, warm));
  add.push_back(run_with("threads.json", "2026-01-08T00:00:00Z", 1.0, 0.4, more_threads));
  add.push_back(run_with("full_scale.json", "2026-01-09T00:00:00Z", 3.0, 1.0, full_scale));
  CommandResult added = run_harness(add);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;

  const std::string old_run =
      run_with("settings_old.json", "2026-02-01T00:00:00Z", 1.0, 1.0, nothing);
  const std::string slowed =
      run_with("settings_slowed.json", "2026-02-03T00:00:00Z", 1.0, 1.15, nothing);
  CommandResult called =
      run_harness({"compare", old_run, slowed, "--format", "csv", "--history", history});
  EXPECT_EQ(called.exit_code, 1) << called.out << called.err;
  expect_only_openmp_reduce_4096_slower(csv_rows(called.out));
  CommandResult console =
      run_harness({"compare", old_run, slowed, "--format", "md", "--history", history});
  EXPECT_EQ(console.exit_code, 1) << console.out << console.err;
  EXPECT_TRUE(contains(console.out, "5 earlier runs of this machine in")) << console.out;
  EXPECT_TRUE(contains(console.out,
                       "left out: 2 runs made with other settings (cache, test_scale), the cells "
                       "of openmp in 1 run made on other CPUs or threads"))
      << console.out;
}

// The ratio over the baseline is estimated only where every run of both sides has it, over one
// baseline, measured beside it: a run without it, a side over another baseline, or a cell
// measured apart (after the others, out of memory beside them) leaves the time to decide alone.
TEST_F(Compare, TheRatioOverTheBaselineNeedsEveryRunBesideOneBaseline) {
  using Change = std::function<void(nlohmann::json&)>;
  const Change nothing = [](nlohmann::json&) {};
  auto run_with = [&](const std::string& name, double level, const Change& change) {
    nlohmann::json run = read_json(base_path());
    for (nlohmann::json& cell : run["results"]) {
      cell.erase("machine_load");
      cell["rounds"].erase("reference");
      scale_kernel_time(cell, level);
    }
    change(cell_of(run, "reduce", "openmp", 4096));
    return write(name, run);
  };
  // `first_base`: what the first base run's openmp reduce at 2^12 gets; `every_new`: each new
  // run's.
  auto paired_ratio = [&](const std::string& tag, const Change& first_base,
                          const Change& every_new) {
    const std::vector<double> levels = {1.0, 1.02, 0.99};
    std::vector<std::string> arguments = {"compare", "--format", "csv"};
    for (int i = 0; i < 3; ++i) {
      const std::string number = std::to_string(i);
      arguments.insert(
          arguments.end(),
          {"--base",
           run_with(tag + "a" + number + ".json", levels[i], i == 0 ? first_base : nothing),
           "--new", run_with(tag + "b" + number + ".json", levels[2 - i], every_new)});
    }
    CommandResult r = run_harness(arguments);
    EXPECT_NE(r.exit_code, 2) << r.out << r.err;
    return row_for(csv_rows(r.out), "reduce", "openmp", "4096").at("paired_ratio");
  };
  EXPECT_NE(paired_ratio("whole_", nothing, nothing), "");  // every run has it: estimated
  EXPECT_EQ(paired_ratio(
                "unpaired_", [](nlohmann::json& cell) { cell.erase("paired"); }, nothing),
            "");
  EXPECT_EQ(paired_ratio(
                "apart_", [](nlohmann::json& cell) { cell["rounds"]["apart"] = true; }, nothing),
            "");
  EXPECT_EQ(paired_ratio("other_", nothing,
                         [](nlohmann::json& cell) { cell["baseline"] = "cpu_serial/other_loop"; }),
            "");
}

// With one run a side and --history, a cell of a kind with its baseline (one thread each) is judged
// by its median over the baseline's in the same run, against how that ratio moved in the earlier
// runs: runs that wander by a fifth hide a 15 % slowdown from the time, not from the ratio.
TEST_F(Compare, OneRunASideOverTheHistoryJudgesTheRatioOverTheBaseline) {
  auto run_with = [&](const std::string& name, const std::string& time, double level,
                      double changed) {
    nlohmann::json run = read_json(base_path());
    run["context"]["time"] = time;
    for (nlohmann::json& cell : run["results"]) {
      cell.erase("machine_load");
      cell["rounds"].erase("reference");
      scale_kernel_time(cell, level);
    }
    nlohmann::json& cell = cell_of(run, "reduce", "openmp", 4096);
    cell["team"]["threads"] = 1;  // of a kind with cpu_serial's loop
    scale_kernel_time(cell, changed);
    return write(name, run);
  };
  const std::string history = folder_->file("paired.sqlite");
  std::vector<std::string> add = {"history", "add", "--history", history};
  const std::vector<double> levels = {1.0, 1.25, 0.8, 1.1}, jitters = {1.0, 1.004, 0.996, 1.002};
  for (std::size_t i = 0; i < levels.size(); ++i) {
    add.push_back(run_with("paired" + std::to_string(i) + ".json",
                           "2026-03-0" + std::to_string(i + 1) + "T00:00:00Z", levels[i],
                           jitters[i]));
  }
  CommandResult added = run_harness(add);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;
  const std::string base_run = run_with("paired_base.json", "2026-04-01T00:00:00Z", 1.0, 1.0);
  const std::string slowed = run_with("paired_new.json", "2026-04-02T00:00:00Z", 1.03, 1.15);
  CommandResult r =
      run_harness({"compare", base_run, slowed, "--format", "csv", "--history", history});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto rows = csv_rows(r.out);
  const auto& row = row_for(rows, "reduce", "openmp", "4096");
  EXPECT_EQ(row.at("verdict"), "slower") << row.at("why");
  EXPECT_EQ(row.at("why"),
            "on time over cpu_serial/loop's in the same rounds (t over the "
            "history's runs)");
  EXPECT_EQ(row.at("paired_ratio"), "1.150");
  for (const auto& other : rows) {
    if (&other == &row) continue;
    EXPECT_TRUE(other.at("verdict") == "same" || other.at("verdict") == "too noisy")
        << other.at("plugin") << " " << other.at("n") << " " << other.at("why");
  }
}

TEST_F(Compare, MoreFilesAreEachComparedToTheFirst) {
  nlohmann::json steady = base();
  set_samples(cell_of(steady, "scan", "cpu_serial", 4096),
              {2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9}, 2.45);
  std::string first = write("first.json", steady);
  scale_kernel_time(cell_of(steady, "scan", "cpu_serial", 4096), 3.0);
  std::string third = write("third.json", steady);
  CommandResult r = run_harness({"compare", first, first, third});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, first + " against " + first +
                                  ": 8 cells compared: 0 faster, 0 "
                                  "slower, 8 same"))
      << r.out;
  EXPECT_TRUE(contains(r.out, third + " against " + first +
                                  ": 8 cells compared: 0 faster, 1 "
                                  "slower, 7 same"))
      << r.out;
}

TEST_F(Compare, MarkdownAndCsvParse) {
  CommandResult md = run_harness({"compare", base_path(), base_path(), "--format", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  std::vector<std::string> lines = lines_of(md.out);
  int tables = 0;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].rfind("|", 0) != 0 || (i > 0 && lines[i - 1].rfind("|", 0) == 0)) continue;
    // A table starts: its header, the alignment row, then rows with as many cells.
    ++tables;
    auto count = [](const std::string& line) { return std::count(line.begin(), line.end(), '|'); };
    EXPECT_TRUE(lines[i + 1].rfind("|---|", 0) == 0 || lines[i + 1].rfind("|--:|", 0) == 0)
        << lines[i + 1];
    for (std::size_t j = i + 1; j < lines.size() && lines[j].rfind("|", 0) == 0; ++j) {
      EXPECT_EQ(count(lines[j]), count(lines[i])) << lines[j];
    }
  }
  EXPECT_EQ(tables, 3);  // the machines, reduce, scan
  EXPECT_TRUE(contains(md.out, "#### reduce  distribution mod100")) << md.out;

  CommandResult csv = run_harness({"compare", base_path(), base_path(), "--format", "csv"});
  std::vector<std::string> csv_lines = lines_of(csv.out);
  ASSERT_EQ(csv_lines.size(), 9u) << csv.out;  // the header and a line per cell
  EXPECT_EQ(csv_lines[0].rfind("base,new,workload,distribution,n,plugin,variant,base_ms,new_ms,"
                               "ratio,",
                               0),
            0u)
      << csv_lines[0];
  EXPECT_TRUE(csv.err.find("8 cells compared") != std::string::npos) << csv.err;
}

TEST_F(Compare, FilesItCannotReadExitTwoNamingTheFileAndTheProblem) {
  std::string text = read_text(base_path());
  struct Case {
    std::string name;
    std::string content;
    std::string problem;
  };
  nlohmann::json future = base();
  future["schema_version"] = kSchemaVersion + 1;
  nlohmann::json older = base();
  older["schema_version"] = 0;
  nlohmann::json no_n = base();
  no_n["results"][0].erase("n");
  // A time that is no number is not a missing time (shown '-', exported null, compared as ok).
  nlohmann::json word_for_a_time = base();
  word_for_a_time["results"][0]["time"]["kernel"]["median_ms"] = "fast";
  std::vector<Case> cases = {
      {"truncated.json", text.substr(0, text.size() / 2), "truncated JSON: the text ends at byte"},
      {"malformed.json", "{\"schema_version\": 1, \"results\": [}", "malformed JSON at byte 35"},
      {"empty.json", "", "the file is empty"},
      {"future.json", future.dump(),
       "schema_version " + std::to_string(kSchemaVersion + 1) + " was written by a newer harness"},
      {"older.json", older.dump(), "schema_version 0 is older than any this harness reads"},
      {"other.json", "{\"name\": \"not results\"}", "not a plugbench results file"},
      {"array.json", "[1, 2, 3]", "not a plugbench results file"},
      {"no_n.json", no_n.dump(), "results[0] has no 'n'"},
      {"word_for_a_time.json", word_for_a_time.dump(),
       "cell 0 cannot be read: median_ms is string, not a number or null"}};
  for (const Case& c : cases) {
    std::string path = folder_->file(c.name);
    write_text(path, c.content);
    CommandResult r = run_harness({"compare", base_path(), path});
    EXPECT_EQ(r.exit_code, 2) << c.name << ": " << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "harness compare: " + path + ": " + c.problem)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  std::string missing = folder_->file("no_such_file.json");
  CommandResult r = run_harness({"compare", missing, base_path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, missing + ": cannot read: No such file or directory")) << r.err;
  r = run_harness({"compare", base_path(), folder_->path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "is a folder, not a results file")) << r.err;
}

TEST(CompareUsage, ErrorsExitTwoAndHelpDocumentsTheRule) {
  CommandResult one = run_harness({"compare", "only.json"});
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_TRUE(contains(one.err, "compare needs two results files or more")) << one.err;
  CommandResult format = run_harness({"compare", "a.json", "b.json", "--format", "xml"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_TRUE(contains(format.err, "--format 'xml' is not one of: console, md, csv")) << format.err;
  EXPECT_EQ(run_harness({"compare", "a.json", "b.json", "--threshold", "-1"}).exit_code, 2);
  EXPECT_EQ(run_harness({"compare", "a.json", "b.json", "--alpha", "1.5"}).exit_code, 2);
  EXPECT_EQ(run_harness({"compare", "a.json", "b.json", "--frobnicate"}).exit_code, 2);
  CommandResult help = run_harness({"compare", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "Mann-Whitney U")) << help.out;
  EXPECT_TRUE(contains(help.out, "exit codes: 0 no regression, 1 a regression")) << help.out;
  EXPECT_TRUE(contains(run_harness({"--help"}).out, "harness compare BASE.json NEW.json"));
}

}  // namespace
}  // namespace plugbench
