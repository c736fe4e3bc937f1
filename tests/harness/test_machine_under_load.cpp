// test_machine_under_load.cpp: real runs beside processes that take every CPU: the cell says the
// machine was busy, and the suspect rule still tells an honest kernel from one that skips work.
// Its own executable, run alone (RUN_SERIAL): it loads the whole machine, and the other tests
// would be its neighbours and it theirs.
#include "measure/machine_load.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

namespace plugbench {
namespace {

using testing::CommandResult;
using testing::contains;

// Processes that each spin on a CPU until killed: the neighbours of a shared machine.
class Neighbours {
 public:
  explicit Neighbours(long count) {
    for (long i = 0; i < count; ++i) {
      pid_t pid = fork();
      if (pid == 0) {
        volatile std::uint64_t spin = 0;
        while (true) spin = spin + 1;
      }
      pids_.push_back(pid);
    }
  }
  ~Neighbours() {
    for (pid_t pid : pids_) kill(pid, SIGKILL);
    for (pid_t pid : pids_) waitpid(pid, nullptr, 0);
  }

 private:
  std::vector<pid_t> pids_;
};

TEST(MachineLoad, ACellRunBesideProcessesThatTakeEveryCpuSaysItWasBusy) {
  testing::TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r;
  {
    Neighbours neighbours(sysconf(_SC_NPROCESSORS_ONLN));
    // One cell of about a second or more: enough clock ticks to judge.
    r = testing::run_harness(
        {"-p", "cpu_serial", "-w", "mandelbrot", "-s", "640x360", "-r", "3", "--json", path});
  }
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json cell = testing::read_json(path)["results"].at(0);
  ASSERT_TRUE(cell.contains("machine_load")) << cell.dump();
  EXPECT_TRUE(cell["machine_load"]["busy"].get<bool>()) << cell["machine_load"].dump();
  EXPECT_GT(cell["machine_load"]["others_cpu_share"].get<double>(), kBusyOthersShare);
  EXPECT_TRUE(contains(r.out, "cpu_serial/loop: busy machine: other processes used")) << r.out;
  EXPECT_TRUE(contains(r.out, "the machine was busy in 1 cell of 1 (")) << r.out;
  // show reads it back from the file and says the same.
  CommandResult shown = testing::run_harness({"show", path});
  EXPECT_TRUE(contains(shown.out, "the machine was busy in 1 cell of 1 (")) << shown.out;
}

// On a machine whose other processes take every CPU, with the full calibration and the
// caches flushed: the suspect rule holds each cell to the reference loop's passes in its own
// rounds, as slowed as the cell, so an honest memory-bound kernel is not flagged and one that
// writes a remembered answer is.
TEST(MachineLoad, UnderLoadACorrectKernelIsNotSuspectAndOneThatSkipsWorkIs) {
  if (testing::kUnderAddressSanitizer) GTEST_SKIP() << "the sanitizer's slowdown is not a load";
  testing::TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r;
  {
    Neighbours neighbours(sysconf(_SC_NPROCESSORS_ONLN));
    r = testing::run_harness(
        {"--plugin-dir", testing::fake_plugin_dir("hostile_lazy"), "-p", "hostile_lazy,cpu_serial",
         "-v", "honest,remembers_answer,loop", "-w", "reduce", "-s", "33554432", "-r", "3",
         "--warmup", "0", "--cache", "cold", "--json", path, "-q"},
        "unset PLUGBENCH_CALIBRATION; ");
  }
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  int honest = 0, flagged = 0;
  const nlohmann::json results = testing::read_json(path);
  for (const nlohmann::json& cell : results["results"]) {
    ASSERT_EQ(cell["status"], "ok") << cell.dump();
    ASSERT_TRUE(cell.contains("rounds")) << "measured in rounds: " << cell.dump();
    if (cell["variant"] == "remembers_answer") {
      EXPECT_TRUE(cell["suspect"].is_string()) << cell.dump();
      EXPECT_TRUE(contains(cell["suspect"].get<std::string>(), "in the same rounds"))
          << cell.dump();
      ++flagged;
    } else {
      EXPECT_TRUE(cell["suspect"].is_null()) << cell.dump();
      ++honest;
    }
  }
  EXPECT_EQ(honest, 2);
  EXPECT_EQ(flagged, 1);
}

}  // namespace
}  // namespace plugbench
