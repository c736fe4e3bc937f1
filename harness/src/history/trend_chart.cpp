// trend_chart.cpp: a small linear SVG line chart of medians over runs.
#include "history/trend_chart.hpp"

#include "base/safe_text.hpp"
#include "render/figure_text.hpp"
#include "results/machine_facts.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace plugbench {
namespace {

constexpr double kTrendWidth = 760, kTrendPlotHeight = 320;
constexpr double kTrendLeft = 70, kTrendRight = 20, kTrendTop = 40;
// Colour-blind-safe (Okabe-Ito), as a legend needs few.
const char* const kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                "#e69f00", "#56b4e9", "#000000", "#f0e442"};

std::string series_name(const CellPoint& p) {
  return p.workload + " " + p.distribution + " " + p.size + " " + p.plugin + "/" + p.variant +
         " on " + p.machine;
}

}  // namespace

std::string trend_svg(const std::vector<CellPoint>& points) {
  // The x axis: every run time of any series, in order, evenly spaced (nightly runs are).
  std::vector<std::string> times;
  double low = 0, high = 0;
  bool any = false;
  for (const CellPoint& p : points) {
    times.push_back(p.run_time);
    if (!p.median_ms) continue;
    const double bottom = p.q1_ms.value_or(*p.median_ms), top = p.q3_ms.value_or(*p.median_ms);
    low = any ? std::min(low, bottom) : bottom;
    high = any ? std::max(high, top) : top;
    any = true;
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (!any) high = 1;
  if (high <= low) high = low + 1;
  const double margin = (high - low) * 0.05;
  low = std::max(0.0, low - margin);
  high += margin;
  const double plot_w = kTrendWidth - kTrendLeft - kTrendRight, plot_h = kTrendPlotHeight;
  std::size_t series_count = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i == 0 || series_name(points[i]) != series_name(points[i - 1])) ++series_count;
  }
  // Room under the plot for the run times and a legend line per series.
  const double height = kTrendTop + plot_h + 40 + 14 * static_cast<double>(series_count);
  auto x_of = [&](const std::string& time) {
    const auto at = std::lower_bound(times.begin(), times.end(), time) - times.begin();
    return kTrendLeft + (times.size() > 1 ? plot_w * static_cast<double>(at) /
                                                static_cast<double>(times.size() - 1)
                                          : plot_w / 2);
  };
  auto y_of = [&](double ms) { return kTrendTop + plot_h * (1 - (ms - low) / (high - low)); };
  auto number = [](double v) { return number_text(v, "%.1f"); };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" << kTrendWidth
      << "\" height=\"" << height << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kTrendLeft << "\" y=\"20\" font-size=\"14\">median kernel time per run "
      << "(bars: quartiles of the repetitions)</text>\n";
  // Axes, five y ticks, the first and last run times under the x axis.
  svg << "<path d=\"M" << kTrendLeft << " " << kTrendTop << "V" << kTrendTop + plot_h << "H"
      << kTrendLeft + plot_w << "\" stroke=\"black\" fill=\"none\"/>\n";
  for (int tick = 0; tick <= 4; ++tick) {
    const double ms = low + (high - low) * tick / 4;
    svg << "<text x=\"" << kTrendLeft - 6 << "\" y=\"" << number(y_of(ms) + 4)
        << "\" text-anchor=\"end\">" << number_text(ms, "%.4g") << "</text>\n"
        << "<line x1=\"" << kTrendLeft << "\" x2=\"" << kTrendLeft + plot_w << "\" y1=\""
        << number(y_of(ms)) << "\" y2=\"" << number(y_of(ms)) << "\" stroke=\"#ddd\"/>\n";
  }
  svg << "<text x=\"14\" y=\"" << kTrendTop + plot_h / 2 << "\" transform=\"rotate(-90 14 "
      << kTrendTop + plot_h / 2 << ")\" text-anchor=\"middle\">ms</text>\n";
  if (!times.empty()) {
    svg << "<text x=\"" << kTrendLeft << "\" y=\"" << kTrendTop + plot_h + 16 << "\">"
        << html_text(times.front()) << "</text>\n"
        << "<text x=\"" << kTrendLeft + plot_w << "\" y=\"" << kTrendTop + plot_h + 16
        << "\" text-anchor=\"end\">" << html_text(times.back()) << "</text>\n";
  }
  // The series: consecutive points of one machine and cell.
  std::size_t series = 0;
  for (std::size_t begin = 0; begin < points.size();) {
    std::size_t end = begin + 1;
    const std::string name = series_name(points[begin]);
    while (end < points.size() && series_name(points[end]) == name) ++end;
    const char* colour = kColours[series % (sizeof kColours / sizeof kColours[0])];
    std::string path;
    for (std::size_t i = begin; i < end; ++i) {
      const CellPoint& p = points[i];
      if (!p.median_ms) continue;
      const double x = x_of(p.run_time);
      path += (path.empty() ? "M" : " L") + number(x) + " " + number(y_of(*p.median_ms));
      svg << "<line x1=\"" << number(x) << "\" x2=\"" << number(x) << "\" y1=\""
          << number(y_of(p.q1_ms.value_or(*p.median_ms))) << "\" y2=\""
          << number(y_of(p.q3_ms.value_or(*p.median_ms))) << "\" stroke=\"" << colour
          << "\"/>\n<circle cx=\"" << number(x) << "\" cy=\"" << number(y_of(*p.median_ms))
          << "\" r=\"3\" fill=\"" << colour << "\"><title>"
          << html_text(p.run_time + " " + p.git_commit + ": " + number_text(*p.median_ms, "%.4g") +
                       " ms")
          << "</title></circle>\n";
    }
    if (!path.empty()) {
      svg << "<path d=\"" << path << "\" stroke=\"" << colour << "\" fill=\"none\"/>\n";
    }
    svg << "<text x=\"" << kTrendLeft << "\" y=\""
        << kTrendTop + plot_h + 32 + 14 * static_cast<double>(series) << "\" fill=\"" << colour
        << "\">" << html_text(name) << "</text>\n";
    ++series;
    begin = end;
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace plugbench
