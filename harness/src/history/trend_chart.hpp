// trend_chart.hpp: `harness history trend --svg FILE` and `harness report --trend`: the trend as an
// SVG chart, a line per series (a machine) of the median kernel time over the runs in time order,
// with the quartiles as a bar at each point. Linear axes: a step over time is what the eye should
// see.
#pragma once

#include "history/history_database.hpp"

#include <string>
#include <vector>

namespace plugbench {

// `points` as history.cells returns them (grouped by machine and cell, oldest first). The output
// depends on the input alone; every text is HTML-escaped. Standalone (--svg) or inline in the
// report's history section (harness report --trend), where class "chart" gives it the page's style.
std::string trend_svg(const std::vector<CellPoint>& points);

}  // namespace plugbench
