// svg_chart.hpp: a small SVG line chart for `harness report`: one line per series over sizes on a
// log2 axis, figures on a log10 axis (GB/s and speedups span decades), with axes, ticks, a legend,
// a title and horizontal reference lines. A cell without a figure (failed, errored, unavailable)
// is marked as such on the size axis, never drawn as a point. The output depends on the input
// alone: the same chart, byte for byte, every time.
#pragma once

#include <string>
#include <vector>

namespace plugbench {

struct ChartPoint {
  double x = 0;       // the size (> 0)
  double y = 0;       // the figure (> 0)
  std::string label;  // the tooltip ("2^20: 812.4 GB/s")
};

// A size at which a series has no figure, and why ("failed verification").
struct ChartGap {
  double x = 0;
  std::string why;
};

struct ChartSeries {
  std::string name;
  std::vector<ChartPoint> points;
  std::vector<ChartGap> gaps;
  std::string group;  // series of one group (a plugin) share a colour, their dashes differ
};

// A horizontal line across the plot, such as a speedup of 1.
struct ChartReference {
  double y = 0;
  std::string label;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ChartSeries> series;
  std::vector<ChartReference> references;
};

// The chart as an <svg> element, every text from `chart` HTML-escaped. A point whose y is not a
// positive finite number cannot sit on the log axis: it is drawn as a gap.
std::string svg_line_chart(const LineChart& chart);

}  // namespace plugbench
