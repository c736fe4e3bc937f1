// file_tables.hpp: what `harness show` prints of one results file, as tables and lines rather than
// text, so that `harness report` renders the same content as HTML: the machine, build and command,
// a table per problem, the summary line, the slow ranks and the crossover.
#pragma once

#include "analyze/crossover.hpp"
#include "measure/cell_result.hpp"
#include "render/text_table.hpp"
#include "results/results_reader.hpp"

#include <string>
#include <vector>

namespace plugbench {

// The cells of one problem, in the order the run measured them.
struct StoredProblem {
  std::string workload;
  std::string distribution;
  Shape shape;
  std::vector<CellResult> cells;
};

// Cells grouped by problem, problems in the order of their first cell (a file's cells: moved in
// where the file needs them no more, so that a large file is held once).
std::vector<StoredProblem> problems_of(std::vector<CellResult> cells);

// Whether the file holds the cells of several MPI ranks.
bool has_several_ranks(const ResultsFile& file);

struct FileTables {
  TextTable run;                    // machine, build and command; whether the run completed
  std::vector<TextTable> problems;  // one per problem (a multi-rank file: the spread over ranks)
  std::string summary;              // "28 cells: 27 ok, ..."
  std::string slow_ranks;           // the slow-rank report of a multi-rank file (lines), or ""
  std::vector<Crossover> crossovers;
};

FileTables file_tables(const ResultsFile& file, const std::vector<StoredProblem>& problems);

}  // namespace plugbench
