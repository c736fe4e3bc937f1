// family_control.cpp: Holm's step-down adjustment.
#include "analyze/family_control.hpp"

#include <algorithm>
#include <numeric>

namespace plugbench {

std::vector<double> holm_adjusted(const std::vector<double>& p_values) {
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running = 0;
  for (std::size_t rank = 0; rank < m; ++rank) {
    const double scaled = static_cast<double>(m - rank) * p_values[order[rank]];
    running = std::max(running, std::min(1.0, scaled));
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

}  // namespace plugbench
