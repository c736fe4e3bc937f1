// chart_style.hpp: the colours and dashes of the report's charts. One colour per group (a plugin,
// a verdict) and a dash per member of a group: cuda_naive and cuda_optimized differ in colour,
// the first six variants of one plugin in dash; past ten groups the colours come again with
// dotted dashes.
#pragma once

#include <string>
#include <vector>

namespace plugbench {

struct SeriesStyle {
  std::string colour;  // "#1f77b4"
  std::string dash;    // an SVG stroke-dasharray; "" for a solid line
};

// The style of each item, `groups[i]` being item i's group: the groups of `colour_order` take the
// first colours in that order (a verdict keeps its colour from chart to chart), the others the
// next ones in the order they first appear; members of a group take the dashes in theirs.
// A coordinate in an SVG attribute (one decimal: the same bytes for the same chart), and a tick's
// label (%g), for both chart kinds.
std::string coordinate(double value);
std::string tick_number(double value);

std::vector<SeriesStyle> styles_by_group(const std::vector<std::string>& groups,
                                         const std::vector<std::string>& colour_order = {});

}  // namespace plugbench
