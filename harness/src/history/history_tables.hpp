// history_tables.hpp: what the history commands print, as tables (so that --format md and csv
// work as for show and compare): the runs, a cell's trend per machine, the same cell across
// machines, and the change points of each series.
#pragma once

#include "history/change_points.hpp"
#include "history/history_database.hpp"
#include "history/memory_level.hpp"
#include "render/text_table.hpp"

#include <vector>

namespace plugbench {

// Each run, with its host read peak against the same machine's other runs (`levels`).
TextTable runs_table(const std::vector<RunSummary>& runs, const MemoryLevels& levels);

// One table per series (a cell on a machine), oldest run first.
std::vector<TextTable> trend_tables(const std::vector<CellPoint>& points);

// One table per cell: each machine's latest run of it, against the fastest machine, with GB/s and
// % of each machine's own measured peak.
std::vector<TextTable> machines_tables(const std::vector<CellPoint>& points);

struct ChangeSettings {
  double threshold = 0.05;  // steps smaller than this fraction of the median before are noise
  ChangePointSettings detection;
};

struct ChangeReport {
  TextTable table;
  int slowdowns = 0;
  int speedups = 0;
};

// The change points of every series, those at least `threshold` in size.
ChangeReport changes_table(const std::vector<CellPoint>& points, const ChangeSettings& settings);

}  // namespace plugbench
