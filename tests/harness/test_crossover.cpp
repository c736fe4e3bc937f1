// test_crossover.cpp: where the GPU starts to pay off, on synthetic cells with known answers, and
// at the end of a real run with a plugin that poses as a GPU one (fake_device).
#include "analyze/crossover.hpp"
#include "results/results_json.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

TimeStats time_stats(double ms) {
  TimeStats stats;
  stats.median_ms = ms;
  stats.samples_ms = {ms};
  return stats;
}

// A cell with only what the crossover reads.
CellResult cell(const std::string& plugin, const std::string& variant, std::uint64_t n,
                double kernel_ms, const std::string& memory_space = "host",
                std::optional<double> pageable_ms = std::nullopt,
                std::optional<double> pinned_ms = std::nullopt) {
  CellResult c;
  c.workload = "reduce";
  c.distribution = "mod100";
  c.plugin = plugin;
  c.variant = variant;
  c.shape = {n, n, 1};
  c.status = CellStatus::ok;
  c.memory_space = value_named(kMemorySpaceNames, memory_space);
  c.kernel = time_stats(kernel_ms);
  if (pageable_ms) c.transfers.push_back({"pageable", {}, {}, time_stats(*pageable_ms)});
  if (pinned_ms) c.transfers.push_back({"pinned", {}, {}, time_stats(*pinned_ms)});
  return c;
}

// The cells of a results file, as `show` and `compare` read them.
std::vector<CellResult> cells_of(const nlohmann::json& results) {
  std::vector<CellResult> cells;
  for (const nlohmann::json& entry : results) cells.push_back(cell_from_json(entry));
  return cells;
}

const Crossover* find(const std::vector<Crossover>& crossovers, const std::string& plugin,
                      const std::string& timing) {
  for (const Crossover& c : crossovers) {
    if (c.plugin == plugin && c.timing == timing) return &c;
  }
  return nullptr;
}

// Sizes 2^10 .. 2^20 (x4): a CPU that costs n ns; a GPU kernel with a 20 us launch and n / 100
// ns; copies of 4 ns (pageable) or 0.5 ns (pinned) per element.
std::vector<CellResult> sweep() {
  std::vector<CellResult> cells;
  for (std::uint64_t n = 1024; n <= (1u << 20); n *= 4) {
    double elements = static_cast<double>(n);
    double kernel = 0.02 + elements * 1e-8;
    cells.push_back(cell("cpu_serial", "loop", n, elements * 1e-6));
    cells.push_back(cell("openmp", "parallel_for", n, 0.01 + elements * 5e-7));
    cells.push_back(cell("cuda_naive", "interleaved", n, kernel * 2, "device",
                         kernel * 2 + elements * 4e-6, kernel * 2 + elements * 5e-7));
    cells.push_back(cell("cuda_naive", "sequential", n, kernel, "device", kernel + elements * 4e-6,
                         kernel + elements * 5e-7));
  }
  return cells;
}

TEST(Crossover, KernelOnlyAndEndToEndOnASyntheticSweep) {
  std::vector<Crossover> crossovers = find_crossovers(sweep());
  ASSERT_EQ(crossovers.size(), 3u);

  // Kernel: the best CPU cell is cpu_serial up to 16384 and openmp above. The GPU's 20 us launch
  // loses while the CPU needs less (16 us at 16384) and wins from 65536 on (43 us against 21 us).
  const Crossover* kernel = find(crossovers, "cuda_naive", "kernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->where, "within");
  EXPECT_EQ(kernel->n, 65536u);
  ASSERT_EQ(kernel->series.size(), 6u);
  EXPECT_EQ(kernel->series[0].cpu_plugin, "cpu_serial");
  EXPECT_EQ(kernel->series.back().cpu_plugin, "openmp");
  EXPECT_EQ(kernel->series.back().gpu_variant, "sequential");  // the fastest variant

  // Pageable copies (4 ns per element) never beat openmp's 0.5 ns per element.
  const Crossover* pageable = find(crossovers, "cuda_naive", "end_to_end_pageable");
  ASSERT_NE(pageable, nullptr);
  EXPECT_EQ(pageable->where, "above_range");
  EXPECT_FALSE(pageable->n.has_value());

  // Pinned copies alone (0.5 ns per element) cost as much as openmp's whole kernel: with the GPU
  // kernel on top they stay behind.
  const Crossover* pinned = find(crossovers, "cuda_naive", "end_to_end_pinned");
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(pinned->where, "above_range");
}

TEST(Crossover, AWinBeforeALossDoesNotCount) {
  std::vector<CellResult> cells;
  const double cpu[] = {1, 2, 4, 8};
  const double gpu[] = {0.5, 3, 3, 3};  // wins at 1024 by chance, loses at 2048, wins from 4096
  for (int i = 0; i < 4; ++i) {
    std::uint64_t n = 1024u << i;
    cells.push_back(cell("openmp", "parallel_for", n, cpu[i]));
    cells.push_back(cell("cub", "device_reduce", n, gpu[i], "device"));
  }
  std::vector<Crossover> crossovers = find_crossovers(cells);
  ASSERT_EQ(crossovers.size(), 1u);
  EXPECT_EQ(crossovers[0].where, "within");
  EXPECT_EQ(crossovers[0].n, 4096u);
}

TEST(Crossover, FasterEverywhereIsBelowTheRange) {
  std::vector<CellResult> cells;
  for (std::uint64_t n : {1000u, 2000u}) {
    cells.push_back(cell("openmp", "parallel_for", n, 1.0));
    cells.push_back(cell("cub", "device_reduce", n, 0.1, "device"));
  }
  std::vector<Crossover> crossovers = find_crossovers(cells);
  ASSERT_EQ(crossovers.size(), 1u);
  EXPECT_EQ(crossovers[0].where, "below_range");
  EXPECT_EQ(crossovers[0].n, 1000u);
  std::ostringstream out;
  TableWriter(out, OutputFormat::console).write(crossover_table(crossovers));
  EXPECT_NE(out.str().find("<= 1000"), std::string::npos) << out.str();
}

TEST(Crossover, OnlyVerifiedCellsAndSizesWithBothSidesCount) {
  std::vector<CellResult> cells;
  cells.push_back(cell("openmp", "parallel_for", 1024, 1.0));
  cells.push_back(cell("openmp", "parallel_for", 4096, 4.0));
  cells.push_back(cell("cub", "device_reduce", 1024, 2.0, "device"));
  cells.push_back(cell("cub", "device_reduce", 4096, 3.0, "device"));
  cells.push_back(cell("cub", "device_reduce", 16384, 3.0, "device"));  // no CPU cell at this size
  CellResult wrong = cell("cuda_naive", "broken", 1024, 0.001, "device");
  wrong.status = CellStatus::failed;  // fast, but wrong: not a crossover
  cells.push_back(wrong);
  CellResult no_time = cell("cuda_naive", "broken", 4096, 0, "device");
  no_time.kernel.reset();
  cells.push_back(no_time);
  std::vector<Crossover> crossovers = find_crossovers(cells);
  ASSERT_EQ(crossovers.size(), 1u);
  EXPECT_EQ(crossovers[0].plugin, "cub");
  ASSERT_EQ(crossovers[0].series.size(), 2u);
  EXPECT_EQ(crossovers[0].n, 4096u);
  nlohmann::json stored = crossover_json(crossovers);
  EXPECT_EQ(stored[0]["where"], "within");
  EXPECT_EQ(stored[0]["n"], 4096);
  EXPECT_EQ(stored[0]["series"][1]["cpu_ms"], 4.0);
}

TEST(Crossover, NoGpuPluginMeansNoCrossoverAndNothingPrinted) {
  std::vector<CellResult> cells;
  cells.push_back(cell("cpu_serial", "loop", 1024, 1.0));
  cells.push_back(cell("openmp", "parallel_for", 1024, 0.5));
  EXPECT_TRUE(find_crossovers(cells).empty());
  std::ostringstream out;
  EXPECT_TRUE(report_crossover({}, out, OutputFormat::console).empty());
  EXPECT_TRUE(out.str().empty());
}

TEST(Crossover, ARunWithAGpuPluginPrintsAndStoresIt) {
  TempFolder folder;
  std::string path = folder.file("r.json");
  CommandResult r = run_harness({"--plugin-dir", fake_plugin_dir("device"), "-p",
                                 "cpu_serial,fake_device", "-w", "reduce", "-s", "2^10..2^14*4",
                                 "-r", "3", "--host-memory", "both", "--json", path, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("crossover: the size from which each GPU plugin beats the best CPU"),
            std::string::npos)
      << r.out;
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["crossover"].size(), 3u) << results["crossover"].dump();
  std::vector<std::string> timings;
  for (const nlohmann::json& entry : results["crossover"]) {
    timings.push_back(entry["timing"].get<std::string>());
    EXPECT_EQ(entry["plugin"], "fake_device");
    EXPECT_EQ(entry["series"].size(), 3u);
  }
  EXPECT_EQ(timings,
            (std::vector<std::string>{"kernel", "end_to_end_pageable", "end_to_end_pinned"}));
  // The same answer from the file as from the run.
  EXPECT_EQ(crossover_json(find_crossovers(cells_of(results["results"]))), results["crossover"]);

  CommandResult cpu_only = run_harness(
      {"-p", "cpu_serial,openmp", "-w", "reduce", "-s", "2^10", "-r", "2", "--json", path, "-q"});
  ASSERT_EQ(cpu_only.exit_code, 0);
  EXPECT_EQ(cpu_only.out.find("crossover"), std::string::npos) << cpu_only.out;
  EXPECT_TRUE(read_json(path)["crossover"].empty());
}

}  // namespace
}  // namespace plugbench
