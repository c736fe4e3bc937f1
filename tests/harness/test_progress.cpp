// test_progress.cpp: what a run says while it runs (elapsed time, the time left, each cell's
// time; escapes only on a terminal) and how an interrupted run says what it lacks.
#include "analyze/report_table.hpp"
#include "measure/cell_result.hpp"
#include "run/progress.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;
using std::chrono::steady_clock;

// A clock the test moves by hand.
struct FakeClock {
  steady_clock::time_point now{};
  void advance(double seconds) {
    now +=
        std::chrono::duration_cast<steady_clock::duration>(std::chrono::duration<double>(seconds));
  }
  Progress::Clock clock() {
    return [this] { return now; };
  }
};

TEST(CliProgress, DurationsReadAsAPersonReadsThem) {
  EXPECT_EQ(describe_duration(0.4213), "0.42 s");
  EXPECT_EQ(describe_duration(12.34), "12.3 s");
  EXPECT_EQ(describe_duration(65), "1:05");
  EXPECT_EQ(describe_duration(3723), "1:02:03");
}

TEST(CliProgress, ALogGetsAPlainLinePerFinishedCellWithItsTimeAndTheTimeLeft) {
  FakeClock time;
  std::ostringstream out;
  Progress progress(out, Progress::Style::log, 4, time.clock());
  progress.note("calibrating host memory bandwidth...");
  time.advance(2);
  progress.start_cell("reduce n=2^10 mod100  cpu_serial/loop");
  time.advance(1.5);
  progress.finish_cell();
  progress.start_cell("reduce n=2^10 mod100  openmp/simd");
  time.advance(0.5);
  progress.finish_cell();
  progress.clear();
  const std::string text = out.str();
  EXPECT_EQ(text,
            "calibrating host memory bandwidth...\n"
            "[1/4] reduce n=2^10 mod100  cpu_serial/loop  1.50 s  (3.50 s elapsed, about 4.50 s "
            "left)\n"
            "[2/4] reduce n=2^10 mod100  openmp/simd  0.50 s  (4.00 s elapsed, about 2.00 s "
            "left)\n");
  EXPECT_FALSE(contains(text, "\x1b")) << "no escape sequence in a log";
  EXPECT_FALSE(contains(text, "\r"));
}

TEST(CliProgress, ATerminalGetsOneLineRewrittenWithTheLastCellsTime) {
  FakeClock time;
  std::ostringstream out;
  Progress progress(out, Progress::Style::terminal, 3, time.clock());
  progress.start_cell("sort n=2^20 uniform  cpu_serial/std_sort");
  time.advance(62);
  progress.finish_cell();
  progress.start_cell("sort n=2^20 uniform  openmp/lsd_radix");
  progress.clear();
  EXPECT_EQ(out.str(),
            "\r\x1b[K[1/3, 0.00 s elapsed] sort n=2^20 uniform  cpu_serial/std_sort"
            "\r\x1b[K[2/3, 1:02 elapsed, about 2:04 left] sort n=2^20 uniform  openmp/lsd_radix"
            "  (last cell 1:02)"
            "\r\x1b[K");
}

TEST(CliProgress, QuietSaysNothing) {
  FakeClock time;
  std::ostringstream out;
  Progress progress(out, Progress::Style::off, 2, time.clock());
  progress.note("calibrating");
  progress.start_cell("a");
  progress.finish_cell();
  progress.clear();
  EXPECT_EQ(out.str(), "");
}

TEST(CliProgress, ASummaryShortOfItsPlannedCellsSaysNOfM) {
  std::vector<CellResult> cells(4);
  for (CellResult& cell : cells) cell.status = CellStatus::ok;
  EXPECT_EQ(cell_summary(cells, 24).rfind("4 of 24 cells: 4 ok, ", 0), 0u)
      << cell_summary(cells, 24);
  EXPECT_EQ(cell_summary(cells, 4).rfind("4 cells: 4 ok, ", 0), 0u) << cell_summary(cells, 4);
  EXPECT_EQ(cell_summary(cells).rfind("4 cells: 4 ok, ", 0), 0u);
}

// stderr redirected to a file, as in a CI log: a plain line per cell, no escape sequences.
TEST(CliProgress, ARedirectedRunLogsEachCellWithItsTimeAndNoEscapes) {
  CommandResult r = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000,2000", "-v",
                                 "loop", "-r", "3", "--no-json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "\x1b")) << r.err;
  EXPECT_FALSE(contains(r.err, "\r")) << r.err;
  EXPECT_TRUE(contains(r.err, "[1/2] reduce n=1000 mod100  cpu_serial/loop  ")) << r.err;
  EXPECT_TRUE(contains(r.err, "[2/2] reduce n=2000 mod100  cpu_serial/loop  ")) << r.err;
  EXPECT_TRUE(contains(r.err, " elapsed, about ")) << r.err;
  EXPECT_TRUE(contains(r.out, "2 cells: 2 ok")) << r.out;
  EXPECT_FALSE(contains(r.out, " of 2 cells")) << "a whole run is not cut: " << r.out;
}

// Interrupted while a problem's second cell runs (a hang, announced by a marker file): the
// problem's table says it is cut, and the summary counts the cells against the plan. In the order
// one cell after another: in rounds no cell of a problem is finished before its last round.
TEST(CliProgress, AnInterruptedRunSaysNOfMCellsAndMarksTheCutTable) {
  TempFolder folder;
  const std::string marker = folder.file("hanging");
  // The shell becomes the harness (exec); a background loop interrupts it once the hang is on.
  const std::string prefix = "export PLUGBENCH_FAKE_HANG_MARKER='" + marker +
                             "'; (for i in $(seq 600); do [ -e '" + marker +
                             "' ] && break; sleep 0.1; done; kill -INT $$) & exec ";
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("hang"), "-p", "cpu_serial,fake_hang", "-w",
                   "reduce", "-s", "1000", "-v", "loop,fake_loop", "-r", "3", "--warmup", "0",
                   "--timeout", "0", "--order", "sequential", "--no-json"},
                  prefix);
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "(interrupted: 1 of this problem's 2 cells were measured)")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 of 2 cells: 1 ok")) << r.out;
}

}  // namespace
}  // namespace plugbench
