// report_table.hpp: what people read: a table per problem like the seeds' (time, GB/s, % of
// peak, speedup, verified), the plugin listing, and the dry-run matrix.
#pragma once

#include "cell_result.hpp"
#include "matrix.hpp"
#include "plugin_loader.hpp"

#include <ostream>
#include <vector>

namespace plugbench {

void print_problem_table(std::ostream& out, const ProblemSpec& problem,
                         const std::vector<CellResult>& cells, const std::string& baseline);

void print_listing(std::ostream& out, const std::vector<PluginFolder>& folders,
                   const std::vector<PluginRecord>& plugins);

void print_dry_run(std::ostream& out, const Matrix& matrix);

// "1.234" with about four significant digits, "-" for none.
std::string format_ms(const std::optional<double>& ms);

}  // namespace plugbench
