// scaling.hpp: the job's figures of distributed cells, from every rank's cells: the slowest rank's
// time (the job waits for it) and the efficiency against rank 0's one-rank time.
#pragma once

#include "measure/cell_result.hpp"

#include <vector>

namespace plugbench {

// For each plugin and variant among `cells` (one problem's, every rank's; or one rank's alone):
// tK = the slowest rank's median total, t1 = rank 0's one-rank time, efficiency t1/tK (weak) or
// t1/(K tK) (strong), written into every rank's cell.
void apply_scaling(std::vector<CellResult>& cells);

}  // namespace plugbench
