// svg_chart.cpp: the layout (plot area, legend beside it), the axes and ticks, and the series.
#include "render/svg_chart.hpp"

#include "base/safe_text.hpp"
#include "render/chart_style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <variant>

namespace plugbench {
namespace {

// Two charts side by side fit a 1280-pixel window.
constexpr double kPlotLeft = 64;
constexpr double kPlotTop = 44;
constexpr double kPlotWidth = 300;
constexpr double kPlotHeight = 260;
constexpr double kLegendLeft = kPlotLeft + kPlotWidth + 18;
constexpr double kLegendRow = 17;
constexpr double kWidth = kLegendLeft + 222;
constexpr std::size_t kLegendNameBytes = 30;

bool positive(double value) {
  return std::isfinite(value) && value > 0;
}

// An axis of exponents [low, high] of `base`, mapped onto [from, to] pixels.
struct LogAxis {
  double base = 10;
  double low = 0;
  double high = 1;
  double from = 0;
  double to = 1;
  double at(double value) const {
    double exponent = std::log(value) / std::log(base);
    return from + (exponent - low) / (high - low) * (to - from);
  }
};

LogAxis log_axis(double base, double smallest, double largest, double from, double to) {
  LogAxis axis{base, 0, 1, from, to};
  if (!(smallest <= largest)) return axis;  // nothing to place
  // A small tolerance keeps an exact power (1024 = 2^10) from widening the axis by a step.
  axis.low = std::floor(std::log(smallest) / std::log(base) + 1e-9);
  axis.high = std::ceil(std::log(largest) / std::log(base) - 1e-9);
  if (axis.high <= axis.low) {
    axis.low -= base == 2 ? 1 : 0;
    axis.high = axis.low + (base == 2 ? 2 : 1);
  }
  return axis;
}

void write_axes(std::ostream& out, const LogAxis& x, const LogAxis& y) {
  const double bottom = kPlotTop + kPlotHeight;
  out << "<g class=\"axes\" font-size=\"11\" fill=\"#333\">\n";
  const int x_step = std::max(1, static_cast<int>(std::ceil((x.high - x.low) / 6)));
  for (int k = static_cast<int>(x.low); k <= static_cast<int>(x.high); k += x_step) {
    std::string at = coordinate(x.at(std::pow(2.0, k)));
    out << "<line x1=\"" << at << "\" y1=\"" << coordinate(kPlotTop) << "\" x2=\"" << at
        << "\" y2=\"" << coordinate(bottom) << "\" stroke=\"#e4e4e4\"/>"
        << "<text x=\"" << at << "\" y=\"" << coordinate(bottom + 18)
        << "\" text-anchor=\"middle\">2<tspan dy=\"-5\" font-size=\"9\">" << k
        << "</tspan></text>\n";
  }
  const bool few_decades = y.high - y.low <= 2;
  for (int k = static_cast<int>(y.low); k <= static_cast<int>(y.high); ++k) {
    for (double mantissa : {1.0, 2.0, 5.0}) {
      if (mantissa > 1 && (!few_decades || k == static_cast<int>(y.high))) continue;
      double value = mantissa * std::pow(10.0, k);
      std::string at = coordinate(y.at(value));
      out << "<line x1=\"" << coordinate(kPlotLeft) << "\" y1=\"" << at << "\" x2=\""
          << coordinate(kPlotLeft + kPlotWidth) << "\" y2=\"" << at << "\" stroke=\""
          << (mantissa == 1 ? "#d0d0d0" : "#ececec") << "\"/>"
          << "<text x=\"" << coordinate(kPlotLeft - 6) << "\" y=\"" << coordinate(y.at(value) + 4)
          << "\" text-anchor=\"end\">" << tick_number(value) << "</text>\n";
    }
  }
  out << "<rect x=\"" << coordinate(kPlotLeft) << "\" y=\"" << coordinate(kPlotTop) << "\" width=\""
      << coordinate(kPlotWidth) << "\" height=\"" << coordinate(kPlotHeight)
      << "\" fill=\"none\" stroke=\"#555\"/>\n</g>\n";
}

// A point or a gap of one series, in size order: a gap breaks the line.
using SeriesMark = std::variant<ChartPoint, ChartGap>;

double mark_x(const SeriesMark& mark) {
  return std::holds_alternative<ChartPoint>(mark) ? std::get<ChartPoint>(mark).x
                                                  : std::get<ChartGap>(mark).x;
}

std::vector<SeriesMark> marks_of(const ChartSeries& series) {
  std::vector<SeriesMark> marks;
  for (const ChartPoint& point : series.points) {
    if (positive(point.x) && positive(point.y)) {
      marks.emplace_back(point);
    } else if (positive(point.x)) {
      marks.emplace_back(ChartGap{point.x, "no figure to draw (" + point.label + ")"});
    }
  }
  for (const ChartGap& gap : series.gaps) {
    if (positive(gap.x)) marks.emplace_back(gap);
  }
  std::stable_sort(marks.begin(), marks.end(), [](const SeriesMark& a, const SeriesMark& b) {
    return mark_x(a) < mark_x(b) ||
           (mark_x(a) == mark_x(b) && a.index() < b.index());  // the point first
  });
  return marks;
}

void write_series(std::ostream& out, const std::string& name, const std::vector<SeriesMark>& marks,
                  const SeriesStyle& style, const LogAxis& x, const LogAxis& y) {
  const std::string& colour = style.colour;
  const std::string& dash = style.dash;
  out << "<g class=\"series\" stroke=\"" << colour << "\" fill=\"" << colour << "\"><title>"
      << html_text(name) << "</title>\n";
  std::vector<std::string> line;
  auto end_line = [&] {
    if (line.size() > 1) {
      out << "<polyline fill=\"none\" stroke-width=\"1.8\""
          << (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") << " points=\"";
      for (std::size_t i = 0; i < line.size(); ++i) out << (i ? " " : "") << line[i];
      out << "\"/>\n";
    }
    line.clear();
  };
  for (const SeriesMark& mark : marks) {
    if (const ChartPoint* point = std::get_if<ChartPoint>(&mark)) {
      line.push_back(coordinate(x.at(point->x)) + "," + coordinate(y.at(point->y)));
      continue;
    }
    end_line();
  }
  end_line();
  for (const SeriesMark& mark : marks) {
    if (const ChartPoint* point = std::get_if<ChartPoint>(&mark)) {
      out << "<circle class=\"point\" cx=\"" << coordinate(x.at(point->x)) << "\" cy=\""
          << coordinate(y.at(point->y)) << "\" r=\"3.2\"><title>" << html_text(name) << " "
          << html_text(point->label) << "</title></circle>\n";
    } else {
      // A cross on the bottom edge: the size was run, and gave no figure.
      const ChartGap& gap = std::get<ChartGap>(mark);
      const double cx = x.at(gap.x), cy = kPlotTop + kPlotHeight - 7;
      out << "<path class=\"gap\" fill=\"none\" stroke-width=\"2\" d=\"M" << coordinate(cx - 4)
          << " " << coordinate(cy - 4) << "L" << coordinate(cx + 4) << " " << coordinate(cy + 4)
          << "M" << coordinate(cx - 4) << " " << coordinate(cy + 4) << "L" << coordinate(cx + 4)
          << " " << coordinate(cy - 4) << "\"><title>" << html_text(name) << ": "
          << html_text(gap.why) << "</title></path>\n";
    }
  }
  out << "</g>\n";
}

void write_legend_entry(std::ostream& out, const std::string& name, std::size_t gaps,
                        std::size_t index, const SeriesStyle& style) {
  const std::string& colour = style.colour;
  const std::string& dash = style.dash;
  const double row = kPlotTop + 8 + kLegendRow * static_cast<double>(index);
  std::string shown = valid_utf8_prefix(name, kLegendNameBytes);
  if (shown.size() < name.size()) shown += "…";
  out << "<g class=\"legend-entry\"><line x1=\"" << coordinate(kLegendLeft) << "\" y1=\""
      << coordinate(row) << "\" x2=\"" << coordinate(kLegendLeft + 24) << "\" y2=\""
      << coordinate(row) << "\" stroke=\"" << colour << "\" stroke-width=\"1.8\""
      << (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") << "/><circle cx=\""
      << coordinate(kLegendLeft + 12) << "\" cy=\"" << coordinate(row) << "\" r=\"3.2\" fill=\""
      << colour << "\"/><text x=\"" << coordinate(kLegendLeft + 30) << "\" y=\""
      << coordinate(row + 4) << "\" font-size=\"11\">" << html_text(shown)
      << (gaps ? " (" + std::to_string(gaps) + " not drawn)" : "") << "</text></g>\n";
}

}  // namespace

std::string svg_line_chart(const LineChart& chart) {
  std::vector<std::vector<SeriesMark>> marks;
  double x_min = std::numeric_limits<double>::infinity(), x_max = -x_min;
  double y_min = x_min, y_max = -x_min;
  for (const ChartSeries& series : chart.series) {
    marks.push_back(marks_of(series));
    for (const SeriesMark& mark : marks.back()) {
      x_min = std::min(x_min, mark_x(mark));
      x_max = std::max(x_max, mark_x(mark));
      if (const ChartPoint* point = std::get_if<ChartPoint>(&mark)) {
        y_min = std::min(y_min, point->y);
        y_max = std::max(y_max, point->y);
      }
    }
  }
  for (const ChartReference& reference : chart.references) {
    if (!positive(reference.y)) continue;
    y_min = std::min(y_min, reference.y);
    y_max = std::max(y_max, reference.y);
  }
  const LogAxis x = log_axis(2, x_min, x_max, kPlotLeft, kPlotLeft + kPlotWidth);
  const LogAxis y = log_axis(10, y_min, y_max, kPlotTop + kPlotHeight, kPlotTop);
  const double height = std::max(kPlotTop + kPlotHeight + 56,
                                 kPlotTop + 16 + kLegendRow * static_cast<double>(marks.size()));
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" << coordinate(kWidth)
      << "\" height=\"" << coordinate(height) << "\" viewBox=\"0 0 " << coordinate(kWidth) << " "
      << coordinate(height) << "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n"
      << "<title>" << html_text(chart.title) << "</title>\n"
      << "<text class=\"chart-title\" x=\"" << coordinate(kPlotLeft)
      << "\" y=\"22\" font-size=\"14\""
      << " font-weight=\"bold\">" << html_text(chart.title) << "</text>\n";
  write_axes(out, x, y);
  out << "<text x=\"" << coordinate(kPlotLeft + kPlotWidth / 2) << "\" y=\""
      << coordinate(kPlotTop + kPlotHeight + 40) << "\" text-anchor=\"middle\">"
      << html_text(chart.x_label) << "</text>\n"
      << "<text transform=\"translate(18 " << coordinate(kPlotTop + kPlotHeight / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << html_text(chart.y_label) << "</text>\n";
  for (const ChartReference& reference : chart.references) {
    if (!positive(reference.y)) continue;
    std::string at = coordinate(y.at(reference.y));
    out << "<g class=\"reference\"><line x1=\"" << coordinate(kPlotLeft) << "\" y1=\"" << at
        << "\" x2=\"" << coordinate(kPlotLeft + kPlotWidth) << "\" y2=\"" << at
        << "\" stroke=\"#000\" stroke-dasharray=\"4 4\"/><text x=\""
        << coordinate(kPlotLeft + kPlotWidth - 4) << "\" y=\"" << coordinate(y.at(reference.y) - 4)
        << "\" text-anchor=\"end\" font-size=\"11\">" << html_text(reference.label)
        << "</text></g>\n";
  }
  std::vector<std::string> groups;
  for (const ChartSeries& series : chart.series) {
    groups.push_back(series.group.empty() ? series.name : series.group);
  }
  const std::vector<SeriesStyle> styles = styles_by_group(groups);
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    write_series(out, chart.series[i].name, marks[i], styles[i], x, y);
  }
  out << "<g class=\"legend\">\n";
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    std::size_t gaps = static_cast<std::size_t>(
        std::count_if(marks[i].begin(), marks[i].end(),
                      [](const SeriesMark& m) { return std::holds_alternative<ChartGap>(m); }));
    write_legend_entry(out, chart.series[i].name, gaps, i, styles[i]);
  }
  out << "</g>\n</svg>\n";
  return out.str();
}

}  // namespace plugbench
