// matrix.hpp: turns the options into the list of problems and, for each, the cells to run.
#pragma once

#include "options.hpp"
#include "plugin_loader.hpp"
#include "workload.hpp"

#include <string>
#include <vector>

namespace plugbench {

struct ProblemSpec {
  const Workload* workload = nullptr;
  std::string distribution;
  Shape shape;
  std::string size_text;  // as requested ("2^20", "7680x4320")
};

// A cell to run, or one already decided (status set: unavailable or unsupported).
struct PlannedCell {
  const PluginRecord* plugin = nullptr;
  const KernelRecord* kernel = nullptr;  // null when decided without a kernel
  std::string status;                    // empty: to run
  std::string message;
};

struct PlannedProblem {
  ProblemSpec spec;
  std::vector<PlannedCell> cells;
};

struct Matrix {
  std::vector<const PluginRecord*> plugins;  // selected, baseline first
  std::vector<PlannedProblem> problems;
  std::size_t cells_to_run() const;
};

// Throws UsageError for unknown names or malformed sizes, listing the valid choices.
Matrix plan_matrix(const Options& options, const std::vector<PluginRecord>& plugins);

// A comma list of names for messages.
std::string join(const std::vector<std::string>& names, const std::string& separator = ", ");

}  // namespace plugbench
