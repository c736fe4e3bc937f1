// chart_style.cpp: number formatting shared by the charts; Tableau 10 colours (told apart by most
// readers, colour-blind ones included) and four dashes; past ten groups the colours repeat with a
// thinner dash pattern.
#include "render/chart_style.hpp"

#include <cstdio>
#include <iterator>
#include <map>

namespace plugbench {
namespace {

constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr const char* kDashes[] = {"", "6 3", "2 2", "8 3 2 3", "12 4", "4 2 1 2 1 2"};
constexpr const char* kRepeatedColourDashes[] = {"1 2", "1 4", "3 2 1 2 1 2 1 2"};

}  // namespace

std::string coordinate(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string tick_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::vector<SeriesStyle> styles_by_group(const std::vector<std::string>& groups,
                                         const std::vector<std::string>& colour_order) {
  std::map<std::string, std::size_t> group_index, members;
  for (const std::string& group : colour_order) group_index.try_emplace(group, group_index.size());
  std::vector<SeriesStyle> styles;
  for (const std::string& group : groups) {
    const std::size_t index = group_index.try_emplace(group, group_index.size()).first->second;
    const std::size_t member = members[group]++;
    const std::size_t round = index / std::size(kColours);
    std::string dash = kDashes[member % std::size(kDashes)];
    if (round > 0) {
      dash = kRepeatedColourDashes[(round - 1 + member) % std::size(kRepeatedColourDashes)];
    }
    styles.push_back({kColours[index % std::size(kColours)], dash});
  }
  return styles;
}

}  // namespace plugbench
