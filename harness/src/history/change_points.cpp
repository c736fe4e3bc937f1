// change_points.cpp: E-divisive means with the energy statistic (alpha = 1, the distance
// |x - y|), binary segmentation, and a permutation test for each new split.
#include "history/change_points.hpp"

#include "measure/measurement.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace plugbench {
namespace {

struct Split {
  std::size_t at = 0;  // first index of the right part
  double statistic = -1;
};

// The best split of x[begin, end) by the scaled energy distance
//   Q(tau) = n1 n2 / (n1 + n2) * (2/(n1 n2) sum|x_i - y_j| - 1/C(n1,2) sum|x_i - x_k|
//                                  - 1/C(n2,2) sum|y_j - y_k|),
// in O(L^2): the within sums of the left and right parts are built up one point at a time.
Split best_split(const std::vector<double>& x, std::size_t begin, std::size_t end,
                 std::size_t min_segment) {
  const std::size_t length = end - begin;
  Split best;
  if (length < 2 * min_segment) return best;
  // left_within[t]: sum over pairs inside x[begin, begin + t); right_within[t]: inside
  // x[begin + t, end).
  std::vector<double> left_within(length + 1, 0), right_within(length + 1, 0);
  for (std::size_t t = 1; t <= length; ++t) {
    double added = 0;
    for (std::size_t i = begin; i < begin + t - 1; ++i) added += std::fabs(x[i] - x[begin + t - 1]);
    left_within[t] = left_within[t - 1] + added;
  }
  for (std::size_t t = length; t-- > 0;) {
    double added = 0;
    for (std::size_t j = begin + t + 1; j < end; ++j) added += std::fabs(x[begin + t] - x[j]);
    right_within[t] = right_within[t + 1] + added;
  }
  const double total = left_within[length];
  for (std::size_t t = min_segment; t + min_segment <= length; ++t) {
    const double n1 = static_cast<double>(t), n2 = static_cast<double>(length - t);
    const double between = total - left_within[t] - right_within[t];
    const double statistic = n1 * n2 / (n1 + n2) *
                             (2 * between / (n1 * n2) - left_within[t] / (n1 * (n1 - 1) / 2) -
                              right_within[t] / (n2 * (n2 - 1) / 2));
    if (statistic > best.statistic) best = {begin + t, statistic};
  }
  return best;
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& series,
                                            const ChangePointSettings& settings) {
  std::mt19937_64 shuffle_source(settings.seed);
  std::vector<std::size_t> bounds = {0, series.size()};  // segment edges, sorted
  std::vector<ChangePoint> found;
  // Binary segmentation: the strongest split over all current segments is tested; a
  // significant one is kept and the search goes on, the first insignificant one ends it.
  while (true) {
    Split strongest;
    for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
      Split split = best_split(series, bounds[s], bounds[s + 1], settings.min_segment);
      if (split.statistic > strongest.statistic) strongest = split;
    }
    if (strongest.statistic <= 0) break;
    // The permutation test: shuffle within each segment, as Matteson & James do, and count how
    // often the strongest split of the shuffled series is as strong.
    // Once as many as alpha allows are as strong, the split cannot be significant: stop there
    // (the usual end of the search, made cheap).
    int as_strong = 0;
    const int too_many =
        static_cast<int>(std::ceil(settings.alpha * (settings.permutations + 1) - 1e-9));
    std::vector<double> shuffled = series;
    for (int p = 0; p < settings.permutations && as_strong + 1 < too_many; ++p) {
      double strongest_shuffled = -1;
      for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
        std::shuffle(shuffled.begin() + static_cast<std::ptrdiff_t>(bounds[s]),
                     shuffled.begin() + static_cast<std::ptrdiff_t>(bounds[s + 1]), shuffle_source);
        strongest_shuffled = std::max(
            strongest_shuffled,
            best_split(shuffled, bounds[s], bounds[s + 1], settings.min_segment).statistic);
      }
      if (strongest_shuffled >= strongest.statistic) ++as_strong;
    }
    const double p_value = (as_strong + 1.0) / (settings.permutations + 1.0);
    if (p_value >= settings.alpha) break;
    bounds.insert(std::upper_bound(bounds.begin(), bounds.end(), strongest.at), strongest.at);
    found.push_back({strongest.at, p_value, 0, 0});
  }
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (ChangePoint& change : found) {
    auto edge = std::lower_bound(bounds.begin(), bounds.end(), change.index);
    const std::size_t left = *(edge - 1), right = *(edge + 1);
    change.before = median_of({series.begin() + static_cast<std::ptrdiff_t>(left),
                               series.begin() + static_cast<std::ptrdiff_t>(change.index)});
    change.after = median_of({series.begin() + static_cast<std::ptrdiff_t>(change.index),
                              series.begin() + static_cast<std::ptrdiff_t>(right)});
  }
  return found;
}

}  // namespace plugbench
