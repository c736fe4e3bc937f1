// mann_whitney.cpp: ranks with ties averaged, U, and its normal approximation.
#include "analyze/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace plugbench {
namespace {

// Two-sided p of |U - mean| under the normal approximation, with the continuity correction.
double two_sided_p(double distance_from_mean, double variance, double& z) {
  if (variance <= 0) {
    z = 0;
    return 1;
  }
  z = std::max(0.0, distance_from_mean - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace

MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  MannWhitneyResult result;
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  if (a.empty() || b.empty()) return result;
  // Every value with the sample it came from (true: a), in increasing order.
  std::vector<std::pair<double, bool>> pooled;
  for (double value : a) pooled.emplace_back(value, true);
  for (double value : b) pooled.emplace_back(value, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of t equal values
  for (std::size_t first = 0; first < pooled.size();) {
    std::size_t last = first;
    while (last + 1 < pooled.size() && pooled[last + 1].first == pooled[first].first) ++last;
    const double ties = static_cast<double>(last - first + 1);
    const double average_rank = (static_cast<double>(first + last) + 2) / 2;  // ranks from 1
    for (std::size_t i = first; i <= last; ++i) {
      if (pooled[i].second) rank_sum_a += average_rank;
    }
    tie_term += ties * ties * ties - ties;
    first = last + 1;
  }
  const double n = n1 + n2;
  result.u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  result.p_value = two_sided_p(std::fabs(result.u - mean), variance, result.z);
  return result;
}

double smallest_p_value(std::size_t n1, std::size_t n2) {
  const double x = static_cast<double>(n1), y = static_cast<double>(n2);
  double z = 0;
  return two_sided_p(x * y / 2, x * y * (x + y + 1) / 12, z);
}

}  // namespace plugbench
