// report_table.hpp: what people read: a table per problem like the seeds' (time, GB/s, % of
// peak, speedup, verified), the plugin listing, and the dry-run matrix.
#pragma once

#include "load/plugin_loader.hpp"
#include "measure/cell_result.hpp"
#include "plan/matrix.hpp"
#include "render/text_table.hpp"

#include <ostream>
#include <vector>

namespace plugbench {

// One problem's cells: a row per plugin variant, written as console, markdown or CSV by
// TableWriter. What a cell's plugin wrote to stdout/stderr (CellResult::output) is in the notes
// under it, each line naming its cell.
TextTable problem_table(const std::string& workload, const std::string& distribution,
                        const Shape& shape, const std::vector<CellResult>& cells,
                        const std::string& baseline);

// "28 cells: 27 ok, 1 failed verification, 0 errors, 0 crashed, 0 timed out, 0 unavailable or
// unsupported": the line that ends a run's tables ("N skipped after --max-restarts, " before the
// last figure when there are any). A run that stopped short of its `planned` cells says
// "4 of 24 cells: ..." (planned 0: not known).
std::string cell_summary(const std::vector<CellResult>& cells, std::size_t planned = 0);
// A line saying how many cells ran while other processes took the machine (empty when none did).
std::string busy_summary(const std::vector<CellResult>& cells);

void print_listing(std::ostream& out, const std::vector<PluginFolder>& folders,
                   const std::vector<PluginRecord>& plugins);

void print_dry_run(std::ostream& out, const Matrix& matrix);

// "1048576 (2^20)", or "7680x4320 (33177600)" for an image.
std::string shape_text(const Shape& shape);

}  // namespace plugbench
