// svg_dot_chart.hpp: a chart of one figure per row for `harness report`, where a line over sizes
// would be a single dot: a run of one size (a row per plugin/variant, its rate) and a comparison
// (a row per cell, new/base with its 95% interval as a bar through the dot). The figure sits on a
// log10 axis; a row without a figure says why instead of a dot. The output depends on the input
// alone, every text HTML-escaped.
#pragma once

#include "render/svg_chart.hpp"

#include <optional>
#include <string>
#include <vector>

namespace plugbench {

struct DotRow {
  std::string label;  // "openmp/parallel_for", "reduce mod100 2^20 openmp/parallel_for"
  std::string group;  // rows of a group share a colour (a plugin, a verdict)
  std::optional<double> value;
  std::optional<double> low, high;  // an interval around the value, where there is one
  std::string note;                 // the tooltip; for a row without a value, why
};

struct DotChart {
  std::string title;
  std::string x_label;
  std::vector<DotRow> rows;
  std::vector<ChartReference> references;  // vertical lines (a ratio of 1), `y` their position
  std::vector<std::string> colour_order;   // groups that take the first colours, in this order
};

std::string svg_dot_chart(const DotChart& chart);

}  // namespace plugbench
