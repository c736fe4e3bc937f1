// report_page.hpp: the page `harness report` writes for results files: per file, its machine and
// build, per workload the tables `harness show` prints and charts of the rate and the speedup
// against size, the crossover; then each later file compared to the first, as `harness compare`
// compares them.
#pragma once

#include "analyze/compare_cells.hpp"
#include "record/results_reader.hpp"

#include <string>
#include <vector>

namespace plugbench {

// The page as one self-contained HTML document. Throws ResultsFileError for a cell that cannot
// be read.
std::string report_page(const std::vector<ResultsFile>& files, const CompareSettings& settings);

}  // namespace plugbench
