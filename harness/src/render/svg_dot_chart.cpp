// svg_dot_chart.cpp: labels on the left, the plot beside them, a row per figure.
#include "render/svg_dot_chart.hpp"

#include "base/safe_text.hpp"
#include "render/chart_style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace plugbench {
namespace {

constexpr double kLabelWidth = 300;
constexpr double kDotPlotLeft = kLabelWidth + 10;
constexpr double kDotPlotWidth = 420;
constexpr double kTop = 62;
constexpr double kRow = 18;
constexpr double kDotWidth = kDotPlotLeft + kDotPlotWidth + 20;
constexpr std::size_t kLabelBytes = 48;

// A figure the log axis can hold: positive, finite, and far enough from double's limits that its
// 1-2-5 steps are finite too (5e-324 or 1.7e308 would make the axis infinite).
bool positive(const std::optional<double>& value) {
  return value && std::isfinite(*value) && *value >= 1e-300 && *value <= 1e300;
}

// The 1-2-5 steps (..., 0.5, 1, 2, 5, 10, ...) at or below and at or above a positive value.
double step_at_or_below(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value) + 1e-9));
  for (double mantissa : {5.0, 2.0, 1.0}) {
    if (mantissa * decade <= value * (1 + 1e-9)) return mantissa * decade;
  }
  return decade;
}

double step_at_or_above(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value) - 1e-9));
  for (double mantissa : {1.0, 2.0, 5.0, 10.0}) {
    if (mantissa * decade >= value * (1 - 1e-9)) return mantissa * decade;
  }
  return 10 * decade;
}

}  // namespace

std::string svg_dot_chart(const DotChart& chart) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  auto widen = [&](const std::optional<double>& value) {
    if (!positive(value)) return;
    low = std::min(low, *value);
    high = std::max(high, *value);
  };
  for (const DotRow& row : chart.rows) {
    if (!positive(row.value)) continue;
    widen(row.value);
    widen(row.low);
    widen(row.high);
  }
  for (const ChartReference& reference : chart.references) widen(reference.y);
  // From the 1-2-5 step at or below the smallest figure to the one at or above the largest, so
  // that ratios near 1 (0.97..1.16: 0.5..2) are not squeezed into the middle of whole decades.
  if (!std::isfinite(low)) low = high = 1;
  const double first = std::log10(step_at_or_below(low));
  double last = std::log10(step_at_or_above(high));
  if (last <= first) last = std::log10(step_at_or_above(std::pow(10.0, first) * 1.01));
  const auto x_of = [&](double value) {
    return kDotPlotLeft + (std::log10(value) - first) / (last - first) * kDotPlotWidth;
  };
  const double plot_height =
      kRow * static_cast<double>(std::max<std::size_t>(1, chart.rows.size()));
  const double bottom = kTop + plot_height;
  const double height = bottom + 48;

  std::vector<std::string> groups;
  for (const DotRow& row : chart.rows) groups.push_back(row.group.empty() ? row.label : row.group);
  const std::vector<SeriesStyle> styles = styles_by_group(groups, chart.colour_order);

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart dot-chart\" width=\""
      << coordinate(kDotWidth) << "\" height=\"" << coordinate(height) << "\" viewBox=\"0 0 "
      << coordinate(kDotWidth) << " " << coordinate(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n"
      << "<title>" << html_text(chart.title) << "</title>\n"
      << "<text class=\"chart-title\" x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">"
      << html_text(chart.title) << "</text>\n";
  out << "<g class=\"axes\" font-size=\"11\" fill=\"#333\">\n";
  // Every 1-2-5 step over two decades at most, else the powers of ten.
  const bool few_decades = last - first <= 2 + 1e-9;
  for (int k = static_cast<int>(std::floor(first + 1e-9));
       k <= static_cast<int>(std::ceil(last - 1e-9)); ++k) {
    for (double mantissa : {1.0, 2.0, 5.0}) {
      if (mantissa > 1 && !few_decades) continue;
      const double value = mantissa * std::pow(10.0, k);
      const double exponent = std::log10(value);
      if (exponent < first - 1e-9 || exponent > last + 1e-9) continue;
      const std::string at = coordinate(x_of(value));
      out << "<line x1=\"" << at << "\" y1=\"" << coordinate(kTop) << "\" x2=\"" << at << "\" y2=\""
          << coordinate(bottom) << "\" stroke=\"" << (mantissa == 1 ? "#d0d0d0" : "#ececec")
          << "\"/><text x=\"" << at << "\" y=\"" << coordinate(bottom + 16)
          << "\" text-anchor=\"middle\">" << tick_number(value) << "</text>\n";
    }
  }
  out << "<rect x=\"" << coordinate(kDotPlotLeft) << "\" y=\"" << coordinate(kTop) << "\" width=\""
      << coordinate(kDotPlotWidth) << "\" height=\"" << coordinate(plot_height)
      << "\" fill=\"none\" stroke=\"#555\"/>\n</g>\n"
      << "<text x=\"" << coordinate(kDotPlotLeft + kDotPlotWidth / 2) << "\" y=\""
      << coordinate(bottom + 36) << "\" text-anchor=\"middle\">" << html_text(chart.x_label)
      << "</text>\n";
  // Where rows share colours (a verdict), which colour is which: a line above the plot.
  std::vector<std::size_t> firsts;  // the leading row of each group
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (std::find(groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(i), groups[i]) ==
        groups.begin() + static_cast<std::ptrdiff_t>(i)) {
      firsts.push_back(i);
    }
  }
  if (firsts.size() < chart.rows.size()) {
    out << "<g class=\"legend\" font-size=\"11\">";
    double x = kDotPlotLeft;
    for (std::size_t leader : firsts) {
      const std::string name = valid_utf8_prefix(groups[leader], kLabelBytes);
      out << "<circle cx=\"" << coordinate(x + 4) << "\" cy=\"" << coordinate(kTop - 24)
          << "\" r=\"4\" fill=\"" << styles[leader].colour << "\"/><text x=\"" << coordinate(x + 11)
          << "\" y=\"" << coordinate(kTop - 20) << "\">" << html_text(name) << "</text>";
      x += 24 + 6.5 * static_cast<double>(name.size());
    }
    out << "</g>\n";
  }
  for (const ChartReference& reference : chart.references) {
    if (!positive(reference.y)) continue;
    const std::string at = coordinate(x_of(reference.y));
    out << "<g class=\"reference\"><line x1=\"" << at << "\" y1=\"" << coordinate(kTop)
        << "\" x2=\"" << at << "\" y2=\"" << coordinate(bottom)
        << "\" stroke=\"#000\" stroke-dasharray=\"4 4\"/><text x=\"" << at << "\" y=\""
        << coordinate(kTop - 4) << "\" text-anchor=\"middle\" font-size=\"11\">"
        << html_text(reference.label) << "</text></g>\n";
  }
  for (std::size_t i = 0; i < chart.rows.size(); ++i) {
    const DotRow& row = chart.rows[i];
    const double y = kTop + kRow * (static_cast<double>(i) + 0.5);
    std::string label = valid_utf8_prefix(row.label, kLabelBytes);
    if (label.size() < row.label.size()) label += "…";
    out << "<g class=\"row\" stroke=\"" << styles[i].colour << "\" fill=\"" << styles[i].colour
        << "\"><title>" << html_text(row.label) << ": " << html_text(row.note) << "</title>"
        << "<text x=\"" << coordinate(kLabelWidth) << "\" y=\"" << coordinate(y + 4)
        << "\" text-anchor=\"end\" stroke=\"none\" fill=\"#222\">" << html_text(label) << "</text>";
    if (!positive(row.value)) {
      out << "<text class=\"gap\" x=\"" << coordinate(kDotPlotLeft + 6) << "\" y=\""
          << coordinate(y + 4)
          << "\" stroke=\"none\" font-size=\"11\">not drawn: " << html_text(row.note)
          << "</text></g>\n";
      continue;
    }
    if (positive(row.low) && positive(row.high)) {
      out << "<line class=\"interval\" x1=\"" << coordinate(x_of(*row.low)) << "\" y1=\""
          << coordinate(y) << "\" x2=\"" << coordinate(x_of(*row.high)) << "\" y2=\""
          << coordinate(y) << "\" stroke-width=\"2\""
          << (styles[i].dash.empty() ? "" : " stroke-dasharray=\"" + styles[i].dash + "\"") << "/>";
    }
    out << "<circle class=\"point\" cx=\"" << coordinate(x_of(*row.value)) << "\" cy=\""
        << coordinate(y) << "\" r=\"4\"/></g>\n";
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace plugbench
