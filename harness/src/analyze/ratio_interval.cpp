// ratio_interval.cpp: Hodges–Lehmann with the Moses interval over samples, Welch's t over runs, and
// Student's t over the spread of earlier runs.
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

// Welch–Satterthwaite degrees of freedom of two variances of means, from `nb` and `nc` values.
double welch_df(double vb, std::size_t nb, double vc, std::size_t nc) {
  return (vb + vc) * (vb + vc) /
         (vb * vb / static_cast<double>(nb - 1) + vc * vc / static_cast<double>(nc - 1));
}

// The interval and p of a difference of logs whose variance is vb + vc, against Student's t.
void estimate_with_t(RatioEstimate& estimate, double difference, double vb, double vc, double df) {
  const double se = std::sqrt(vb + vc);
  if (!(se > 0)) {  // every run of each side alike (the same file twice?): nothing to test
    estimate.low = estimate.high = std::nan("");
    estimate.p_value = 1;
    return;
  }
  const boost::math::students_t t(df);
  const double quantile = boost::math::quantile(boost::math::complement(t, 0.025));
  estimate.low = std::exp(difference - quantile * se);
  estimate.high = std::exp(difference + quantile * se);
  estimate.p_value = 2 * boost::math::cdf(boost::math::complement(t, std::fabs(difference / se)));
}

}  // namespace

std::optional<RatioEstimate> ratio_from_samples(const std::vector<double>& base,
                                                const std::vector<double>& current) {
  std::vector<double> b = logs_of(base), c = logs_of(current);
  if (b.empty() || c.empty()) return std::nullopt;
  // The test over the same values as the estimate: the positive, finite ones.
  std::vector<double> base_used, current_used;
  for (double x : b) base_used.push_back(std::exp(x));
  for (double y : c) current_used.push_back(std::exp(y));
  const double p_value = mann_whitney_u(base_used, current_used).p_value;
  // Every pair of thousands of samples a side would be millions of differences: evenly spaced
  // order statistics of each side stand for it (the estimate and interval move by less than the
  // spacing).
  const auto thin = [](std::vector<double>& values) {
    constexpr std::size_t kMost = 2000;
    if (values.size() <= kMost) return;
    std::sort(values.begin(), values.end());
    std::vector<double> kept;
    for (std::size_t i = 0; i < kMost; ++i) kept.push_back(values[i * values.size() / kMost]);
    values = std::move(kept);
  };
  thin(b);
  thin(c);
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
  // critical value (normal approximation): every shift inside it the test would not reject. Too
  // few samples for any k: no interval (the whole range would cover far less than 95 %).
  const double m = static_cast<double>(b.size()), n = static_cast<double>(c.size());
  const double k = std::floor(m * n / 2 - kZ975 * std::sqrt(m * n * (m + n + 1) / 12));
  RatioEstimate estimate;
  estimate.ratio = std::exp(median);
  if (k >= 1) {
    const std::size_t index = static_cast<std::size_t>(k) - 1;
    estimate.low = std::exp(differences[index]);
    estimate.high = std::exp(differences[count - 1 - index]);
  } else {
    estimate.low = estimate.high = std::nan("");
  }
  estimate.p_value = p_value;
  estimate.test = kSamplesTest;
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
  estimate.test = kRunsTest;
  estimate.ratio = std::exp(difference);
  estimate_with_t(estimate, difference, vb, vc, welch_df(vb, b.size(), vc, c.size()));
  return estimate;
}

std::optional<RatioEstimate> ratio_over_history(double base, double current,
                                                const std::vector<double>& base_history_logs,
                                                const std::vector<double>& current_history_logs,
                                                bool one_machine) {
  if (!(base > 0) || !(current > 0) || base_history_logs.size() < kFewestHistoryRuns ||
      current_history_logs.size() < kFewestHistoryRuns) {
    return std::nullopt;
  }
  const std::size_t nb = base_history_logs.size(), nc = current_history_logs.size();
  const double vb = variance_of(base_history_logs, mean_of(base_history_logs));
  const double vc = variance_of(current_history_logs, mean_of(current_history_logs));
  RatioEstimate estimate;
  estimate.test = kHistoryTest;
  const double difference = std::log(current) - std::log(base);
  estimate.ratio = std::exp(difference);
  estimate_with_t(estimate, difference, vb, vc,
                  one_machine ? static_cast<double>(nb - 1) : welch_df(vb, nb, vc, nc));
  return estimate;
}

}  // namespace plugbench
