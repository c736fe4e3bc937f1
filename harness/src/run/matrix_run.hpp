// matrix_run.hpp: a run of the matrix, in stages: calibrate the host; measure each problem's cells
// from a cell source (worker processes or the harness itself); derive their figures and print the
// problem's table as it completes; then the summary and the crossover; then the results file.
#pragma once

#include "cells/cell_source.hpp"
#include "load/plugin_loader.hpp"
#include "plan/matrix.hpp"
#include "ranks/rank_group.hpp"
#include "run/run_request.hpp"

#include <vector>

namespace plugbench {

// The request that measures a planned cell (one whose status is empty) with `settings`.
CellRequest request_for(const ProblemSpec& spec, const PlannedCell& planned,
                        const RunSettings& settings);

// A planned cell decided without running (its status set by the planner).
CellResult decided_cell(const ProblemSpec& spec, const PlannedCell& planned);

// The exit code a run's cells give: 3 when one ended in an error (error, oom, crashed, timeout),
// else 1 when one failed verification, else 0.
int exit_code_for(const std::vector<CellResult>& cells);

// Runs `matrix` on this rank of `ranks` (with the other ranks, when there are several; the root
// reports and writes the results) and returns the harness's exit code (exit_codes.hpp), the same
// on every rank. `rank_facts`: this rank's placement (rank_placement.hpp); unused alone.
int run_matrix(const RunRequest& options, const std::vector<PluginRecord>& plugins,
               const Matrix& matrix, RankGroup& ranks, const nlohmann::json& rank_facts);

}  // namespace plugbench
