// paired_ratios.cpp: per-round ratios, their median and its order-statistic interval.
#include "measure/paired_ratios.hpp"

#include "measure/measurement.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace plugbench {
namespace {

// P(Binomial(n, 1/2) <= k), summed in log space: 0.5^n underflows from n = 1075.
double binomial_half_cdf(int n, int k) {
  double sum = 0;
  for (int i = 0; i <= k; ++i) {
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                    n * std::log(0.5));
  }
  return sum;
}

bool aligned(const CellResult& cell) {
  return cell.rounds && cell.kernel && cell.rounds->round.size() == cell.kernel->samples_ms.size();
}

}  // namespace

std::optional<PairedFigure> median_with_interval(std::vector<double> ratios) {
  ratios.erase(
      std::remove_if(ratios.begin(), ratios.end(), [](double r) { return !std::isfinite(r); }),
      ratios.end());
  if (ratios.empty()) return std::nullopt;
  std::sort(ratios.begin(), ratios.end());
  const int n = static_cast<int>(ratios.size());
  PairedFigure figure;
  figure.pairs = n;
  figure.median = median_of(ratios);
  // The largest k (1-based) whose interval [x(k), x(n+1-k)] still covers with 95 %.
  int k = 1;
  while (k + 1 <= (n + 1) / 2 && 1 - 2 * binomial_half_cdf(n, k) >= kPairedConfidence) ++k;
  figure.low = ratios[k - 1];
  figure.high = ratios[n - k];
  figure.confidence = std::min(1.0, 1 - 2 * binomial_half_cdf(n, k - 1));
  return figure;
}

std::vector<RoundPair> pairs_by_round(const CellResult& cell, const CellResult& other) {
  std::vector<RoundPair> pairs;
  if (!aligned(cell) || !aligned(other)) return pairs;
  std::map<int, std::size_t> other_by_round;
  for (std::size_t j = 0; j < other.rounds->round.size(); ++j) {
    other_by_round.emplace(other.rounds->round[j], j);
  }
  for (std::size_t i = 0; i < cell.rounds->round.size(); ++i) {
    if (auto found = other_by_round.find(cell.rounds->round[i]); found != other_by_round.end()) {
      pairs.push_back({i, found->second});
    }
  }
  return pairs;
}

}  // namespace plugbench
