// test_show.cpp: `harness show` prints a stored results file as its run printed it (the same
// tables, summary and crossover, under the machine and command), as markdown and CSV too, and
// refuses files it cannot read.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::csv_rows;
using plugbench::testing::lines_of;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

// One real run of two CPU plugins, its console output kept, shared by the tests.
class Show : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<TempFolder>();
    run_ = std::make_unique<CommandResult>(run_harness(
        {"-p", "cpu_serial,openmp", "-w", "reduce,compact", "-s", "1000,4097", "-v",
         "loop,parallel_for,two_pass", "-r", "3", "--warmup", "0", "--json", path(), "-q"}));
    ASSERT_EQ(run_->exit_code, 0) << run_->out << run_->err;
  }
  static void TearDownTestSuite() {
    folder_.reset();
    run_.reset();
  }
  static std::string path() { return folder_->file("run.json"); }

  static std::unique_ptr<TempFolder> folder_;
  static std::unique_ptr<CommandResult> run_;
};
std::unique_ptr<TempFolder> Show::folder_;
std::unique_ptr<CommandResult> Show::run_;

TEST_F(Show, PrintsTheTablesTheRunPrintedUnderTheMachineAndCommand) {
  CommandResult r = run_harness({"show", path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Every line the run printed (but the one naming its results file) comes back, in order.
  std::vector<std::string> shown = lines_of(r.out);
  std::size_t at = 0;
  for (const std::string& line : lines_of(run_->out)) {
    if (line.rfind("results: ", 0) == 0) continue;
    auto found = std::find(shown.begin() + static_cast<long>(at), shown.end(), line);
    ASSERT_NE(found, shown.end()) << "missing or out of order: '" << line << "'\n" << r.out;
    at = static_cast<std::size_t>(found - shown.begin()) + 1;
  }
  EXPECT_TRUE(contains(r.out, "results file: " + path())) << r.out;
  EXPECT_TRUE(contains(r.out, "-p cpu_serial,openmp -w reduce,compact")) << "the command line";
  EXPECT_TRUE(contains(r.out, "host peak")) << r.out;
  EXPECT_FALSE(contains(r.out, "complete")) << "a complete file needs no remark";
}

TEST_F(Show, CsvIsOneLinePerCellWithTheFileAndMarkdownHasTheTables) {
  CommandResult csv = run_harness({"show", path(), "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  auto rows = csv_rows(csv.out);
  EXPECT_EQ(rows.size(), read_json(path())["results"].size());
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("file"), path());
    // A loaded machine may mark a cell SUSPECT after the verdict (timing, not correctness).
    EXPECT_EQ(row.at("verified").rfind("yes (exact)", 0), 0u) << row.at("verified");
  }
  EXPECT_TRUE(contains(csv.err, "8 cells: 8 ok")) << "the summary goes to stderr";

  CommandResult md = run_harness({"show", path(), "--format", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_TRUE(contains(md.out, "| plugin | variant | kernel ms |")) << md.out;
  EXPECT_TRUE(contains(md.out, "| cpu_serial | loop |")) << md.out;
}

TEST_F(Show, AnIncompleteFileSaysSo) {
  nlohmann::json document = read_json(path());
  document["complete"] = false;
  document["interrupted_by_signal"] = 2;
  document["results"].erase(document["results"].begin() + 3, document["results"].end());
  std::string cut = folder_->file("cut.json");
  std::ofstream(cut) << document.dump();
  CommandResult r = run_harness({"show", cut});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "no: stopped before the end (signal 2)")) << r.out;
  EXPECT_TRUE(contains(r.out, "3 cells: 3 ok")) << r.out;
}

// A status this harness does not know (a newer harness's, a hand edit) is shown as written, not
// as the verification record beside it, and counted apart from the statuses the summary names.
TEST_F(Show, AStatusThisHarnessDoesNotKnowIsShownAsWrittenAndCountedApart) {
  nlohmann::json document = read_json(path());
  ASSERT_TRUE(document["results"][0]["verification"]["passed"].get<bool>());
  document["results"][0]["status"] = "exploded";
  const std::string odd = folder_->file("odd_status.json");
  std::ofstream(odd) << document.dump();
  CommandResult r = run_harness({"show", odd});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "exploded (a status this harness does not know)")) << r.out;
  const std::size_t cells = document["results"].size();
  EXPECT_TRUE(contains(r.out, std::to_string(cells) + " cells: " + std::to_string(cells - 1) +
                                  " ok, 0 failed verification, 0 errors, 0 crashed, 0 timed "
                                  "out, 0 unavailable or unsupported, 1 of a status this harness "
                                  "does not know"))
      << r.out;
}

// A cell made busy by the hypervisor's steal (a neighbour VM) is said to be so, not blamed on
// other processes that took nothing; one made busy by other processes names them alone.
TEST_F(Show, TheBusyLineNamesWhatTookTheMachine) {
  nlohmann::json document = read_json(path());
  const auto load = [](double others, double steal) {
    return nlohmann::json{{"others_cpu_share", others},
                          {"steal_share", steal},
                          {"load_average", 1.0},
                          {"judged", true},
                          {"busy", true}};
  };
  // The fixture's own run may have been busy (tests beside it): every other cell made quiet.
  for (nlohmann::json& cell : document["results"]) {
    cell["machine_load"] = load(0, 0);
    cell["machine_load"]["busy"] = false;
  }
  document["results"][0]["machine_load"] = load(0.002, 0.31);
  const std::string stolen = folder_->file("stolen.json");
  std::ofstream(stolen) << document.dump();
  CommandResult r = run_harness({"show", stolen});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "(the hypervisor took up to 31 % of its CPU time for other machines "
                       "(steal)): their times may be the neighbours'"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "other processes used up to")) << r.out;

  document["results"][0]["machine_load"] = load(0.62, 0.0);
  const std::string crowded = folder_->file("crowded.json");
  std::ofstream(crowded) << document.dump();
  r = run_harness({"show", crowded});
  EXPECT_TRUE(contains(r.out, "(other processes used up to 62 % of its CPUs): their times"))
      << r.out;
}

TEST_F(Show, FilesItCannotReadExitTwoNamingTheFileAndNothingIsPrinted) {
  std::string garbage = folder_->file("garbage.json");
  std::ofstream(garbage) << "{\"schema_version\": 1, \"results\": [";
  CommandResult r = run_harness({"show", path(), garbage});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, garbage)) << r.err;
  EXPECT_TRUE(r.out.empty()) << "a bad file is reported before anything is shown:\n" << r.out;

  nlohmann::json document = read_json(path());
  document["results"][1].erase("time");
  std::string broken = folder_->file("broken_cell.json");
  std::ofstream(broken) << document.dump();
  r = run_harness({"show", broken});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, broken + ": cell 1 cannot be read")) << r.err;

  r = run_harness({"show", folder_->file("absent.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "absent.json")) << r.err;

  r = run_harness({"show"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "show needs a results file")) << r.err;

  r = run_harness({"show", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "usage: harness show FILE.json")) << r.out;
}

}  // namespace
}  // namespace plugbench
