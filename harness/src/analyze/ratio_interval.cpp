// ratio_interval.cpp: Hodges–Lehmann with the Moses interval over samples, Welch's t over runs.
#include "analyze/ratio_interval.hpp"

#include "analyze/mann_whitney.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>

namespace plugbench {
namespace {

constexpr double kZ975 = 1.959963984540054;  // the normal quantile of a two-sided 95 %

std::vector<double> logs_of(const std::vector<double>& values) {
  std::vector<double> logs;
  for (double value : values) {
    if (std::isfinite(value) && value > 0) logs.push_back(std::log(value));
  }
  return logs;
}

double mean_of(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

double variance_of(const std::vector<double>& values, double mean) {
  double squares = 0;
  for (double value : values) squares += (value - mean) * (value - mean);
  return squares / static_cast<double>(values.size() - 1);
}

}  // namespace

std::optional<RatioEstimate> ratio_from_samples(const std::vector<double>& base,
                                                const std::vector<double>& current) {
  const std::vector<double> b = logs_of(base), c = logs_of(current);
  if (b.empty() || c.empty()) return std::nullopt;
  std::vector<double> differences;
  differences.reserve(b.size() * c.size());
  for (double x : b) {
    for (double y : c) differences.push_back(y - x);
  }
  std::sort(differences.begin(), differences.end());
  const std::size_t count = differences.size();
  const double median = count % 2 == 1 ? differences[count / 2]
                                       : (differences[count / 2 - 1] + differences[count / 2]) / 2;
  // Moses: the interval between the k-th smallest and k-th largest difference, k from the U test's
  // critical value (normal approximation): every shift inside it the test would not reject.
  const double m = static_cast<double>(b.size()), n = static_cast<double>(c.size());
  const double k = std::floor(m * n / 2 - kZ975 * std::sqrt(m * n * (m + n + 1) / 12));
  const std::size_t index = k >= 1 ? static_cast<std::size_t>(k) - 1 : 0;
  RatioEstimate estimate;
  estimate.ratio = std::exp(median);
  estimate.low = std::exp(differences[index]);
  estimate.high = std::exp(differences[count - 1 - index]);
  estimate.p_value = mann_whitney_u(base, current).p_value;
  estimate.test = "U over samples";
  return estimate;
}

std::optional<RatioEstimate> ratio_from_runs(const std::vector<double>& base_runs,
                                             const std::vector<double>& current_runs) {
  const std::vector<double> b = logs_of(base_runs), c = logs_of(current_runs);
  if (b.size() < 2 || c.size() < 2) return std::nullopt;
  const double mb = mean_of(b), mc = mean_of(c);
  const double vb = variance_of(b, mb) / static_cast<double>(b.size());
  const double vc = variance_of(c, mc) / static_cast<double>(c.size());
  const double difference = mc - mb;
  RatioEstimate estimate;
  estimate.test = "t over runs";
  estimate.ratio = std::exp(difference);
  const double se = std::sqrt(vb + vc);
  if (!(se > 0)) {  // every run of each side alike: no spread to test against
    estimate.low = estimate.high = estimate.ratio;
    estimate.p_value = difference == 0 ? 1 : 0;
    return estimate;
  }
  // Welch–Satterthwaite degrees of freedom.
  const double df =
      (vb + vc) * (vb + vc) /
      (vb * vb / static_cast<double>(b.size() - 1) + vc * vc / static_cast<double>(c.size() - 1));
  const boost::math::students_t t(df);
  const double quantile = boost::math::quantile(boost::math::complement(t, 0.025));
  estimate.low = std::exp(difference - quantile * se);
  estimate.high = std::exp(difference + quantile * se);
  estimate.p_value = 2 * boost::math::cdf(boost::math::complement(t, std::fabs(difference / se)));
  return estimate;
}

}  // namespace plugbench
