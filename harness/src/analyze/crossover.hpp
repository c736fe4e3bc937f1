// crossover.hpp: where the GPU starts to pay off. For each workload and distribution, the smallest
// size from which each GPU (device memory) plugin's fastest variant beats the fastest CPU (host
// memory) cell, with the kernel time alone and with the copies included (pageable and pinned host
// memory). Computed from cells, those of a run or those read back from a results file alike.
#pragma once

#include "measure/cell_result.hpp"
#include "render/text_table.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace plugbench {

// One size where both sides have a time.
struct CrossoverPoint {
  std::uint64_t n = 0;
  double gpu_ms = 0;  // the GPU plugin's fastest variant at this size
  std::string gpu_variant;
  double cpu_ms = 0;  // the fastest CPU cell at this size (its data is in host memory already)
  std::string cpu_plugin;
  std::string cpu_variant;
};

struct Crossover {
  std::string workload;
  std::string distribution;
  std::string plugin;  // the GPU plugin
  std::string timing;  // "kernel", "end_to_end_pageable" or "end_to_end_pinned"
  // "within": slower below n, faster from n on; "below_range": faster at every size measured
  // (n is the smallest); "above_range": not faster at the largest size measured (no n).
  std::string where;
  std::optional<std::uint64_t> n;
  std::vector<CrossoverPoint> series;  // ascending sizes
};

// From the cells that ran and verified (status ok); the others are left out.
std::vector<Crossover> find_crossovers(const std::vector<CellResult>& cells);

// The results file's "crossover" array.
nlohmann::json crossover_json(const std::vector<Crossover>& crossovers);

// One row per workload, distribution and GPU plugin: the crossover size of each timing.
TextTable crossover_table(const std::vector<Crossover>& crossovers);

// The end-of-run report: the crossovers of a run's cells, printed (nothing when no GPU plugin and
// CPU plugin both ran) and returned for the results file.
std::vector<Crossover> report_crossover(const std::vector<CellResult>& cells, std::ostream& out,
                                        OutputFormat format);

}  // namespace plugbench
