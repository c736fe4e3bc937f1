// distributed_table.hpp: the table of a distributed problem (dist_reduce, dist_sort): per plugin
// variant, the job's time split into local compute and exchange, the bytes each rank sent and the
// exchange's rate, how device buffers reached MPI, and the efficiency against one rank.
#pragma once

#include "measure/cell_result.hpp"
#include "render/text_table.hpp"

#include <vector>

namespace plugbench {

// `cells`: one problem's, every rank's (or one rank's alone), after apply_scaling.
TextTable distributed_table(const std::string& workload, const std::string& distribution,
                            const Shape& shape, const std::vector<CellResult>& cells);

}  // namespace plugbench
