// matrix.hpp: turns the options into the list of problems and, for each, the cells to run.
#pragma once

#include "load/plugin_loader.hpp"
#include "measure/cell_result.hpp"
#include "plan/plan_settings.hpp"
#include "workload.hpp"

#include <functional>
#include <optional>
#include <string>
#include <utility>
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
  std::optional<CellStatus> status;      // none: to run
  std::string message;

  bool to_run() const { return !status; }
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

// The problem shapes of one workload, each with the text it was asked for by ("2^20", "7680x4320").
using ShapeList = std::vector<std::pair<Shape, std::string>>;

// What to plan: a run's options (matrix_choices), or --check-plugin's.
struct MatrixChoices {
  std::vector<std::string> plugins = PlanSettings{}.plugins;
  std::vector<std::string> workloads = PlanSettings{}.workloads;
  std::vector<std::string> distributions;  // empty: each workload's first; "all": every one
  std::vector<std::string> variants = PlanSettings{}.variants;
  std::string baseline;         // planned first
  bool baseline_given = false;  // named by the user: then it must exist
  std::function<ShapeList(const Workload&)> shapes;
  std::vector<std::string> sized_workloads;  // named in WORKLOAD=SIZES: each must be selected
  std::string sizes_for_the_rest;  // the list without a name, if any: some workload must use it
};

// A run's choices: --sizes (a list for every workload, lists for named workloads), or each
// workload's default sizes. Throws UsageError for a malformed size, an unknown workload name, a
// workload given sizes twice, or two lists without a name.
MatrixChoices matrix_choices(const PlanSettings& settings);

// Throws UsageError for unknown names, listing the valid choices.
Matrix plan_matrix(const MatrixChoices& choices, const std::vector<PluginRecord>& plugins);
inline Matrix plan_matrix(const PlanSettings& settings, const std::vector<PluginRecord>& plugins) {
  return plan_matrix(matrix_choices(settings), plugins);
}

}  // namespace plugbench
