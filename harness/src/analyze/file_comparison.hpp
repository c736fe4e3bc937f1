// file_comparison.hpp: one results file compared to a base file, as `harness compare` prints it
// and `harness report` renders it: the machines side by side, what the verdicts mean, a table of
// cells per workload and distribution, the summary and the regressions.
#pragma once

#include "analyze/compare_cells.hpp"
#include "measure/cell_result.hpp"
#include "render/text_table.hpp"
#include "results/results_reader.hpp"

#include <string>
#include <vector>

namespace plugbench {

struct FileComparison {
  std::string heading;  // "base: A.json    new: B.json"
  // One line where the CPUs or GPUs differ: the verdicts compare the machines; else "".
  std::string machines_differ;
  TextTable machines;                // the facts of both, the differing ones marked
  std::vector<std::string> remarks;  // lines on how to read the tables (machines that differ...)
  std::vector<TextTable> tables;     // one per workload and distribution
  std::string summary;               // "B.json against A.json: 12 cells compared: ..."
  std::vector<std::string> regressions;  // "REGRESSION reduce mod100 n=1024 openmp/...: ..."
  int compared = 0;  // cells whose times were compared (faster, slower, same or too noisy)
  bool hardware_differs = false;
  std::vector<CellComparison> cells;  // every matched or unmatched cell, as the tables show them
};

// One side of a comparison: one results file, or several runs of the same matrix (made in
// alternation with the other side's, ideally: A B A B).
struct ComparedSide {
  std::vector<const ResultsFile*> files;
  std::vector<std::vector<CellResult>> cells;  // each file's, as read (multi-rank collapsed)
};

// Which columns the cell tables have, and in what order.
enum class ComparisonColumns {
  // What fits 120 on a terminal: no GB/s, p-values or reasons (those that say more than the
  // test's name are lines below the table); "%peak new/base" first where the machines differ.
  terminal,
  // Every column (markdown, --wide, the report), "%peak new/base" first where the machines differ.
  every,
  // Every column in one order whatever the files (CSV: read by position too).
  every_in_fixed_order,
};

// `current` against `base`.
FileComparison compare_sides(const ComparedSide& base, const ComparedSide& current,
                             const CompareSettings& settings, ComparisonColumns columns);

// One file a side.
FileComparison compare_files(const ResultsFile& base, std::vector<CellResult> base_cells,
                             const ResultsFile& current, std::vector<CellResult> current_cells,
                             const CompareSettings& settings, ComparisonColumns columns);

}  // namespace plugbench
