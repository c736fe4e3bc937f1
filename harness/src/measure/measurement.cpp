// measurement.cpp: the bridge to Google Benchmark. Each cell is registered at run time, run alone
// with manual time, and read back through a reporter that keeps the aggregates and the samples.
#include "measure/measurement.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <vector>

namespace plugbench {
namespace {

double minimum(const std::vector<double>& values) {
  return values.empty() ? 0 : *std::min_element(values.begin(), values.end());
}
double maximum(const std::vector<double>& values) {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

// Keeps what Google Benchmark reports: one run per repetition, then the aggregates.
class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Aggregate) {
        aggregates_[run.aggregate_name] = run;
      } else {
        repetitions_.push_back(run);
      }
    }
  }
  const std::map<std::string, Run>& aggregates() const { return aggregates_; }
  const std::vector<Run>& repetitions() const { return repetitions_; }

 private:
  std::map<std::string, Run> aggregates_;
  std::vector<Run> repetitions_;
};

// Seconds -> milliseconds for a time aggregate; cv is a ratio and stays as it is.
double aggregate_value(const benchmark::BenchmarkReporter::Run& run) {
  if (run.aggregate_unit == benchmark::StatisticUnit::kPercentage) return run.real_accumulated_time;
  return run.GetAdjustedRealTime();  // in the benchmark's unit: milliseconds
}

double counter_value(const benchmark::BenchmarkReporter::Run& run, const std::string& name) {
  auto it = run.counters.find(name);
  return it == run.counters.end() ? 0 : static_cast<double>(it->second.value);
}

void initialize_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    int argc = 1;
    char name[] = "harness";
    char* argv[] = {name, nullptr};
    benchmark::Initialize(&argc, argv);
  });
}

TimeStats stats_from(const CollectingReporter& reporter, const std::string& counter) {
  TimeStats stats;
  stats.repetitions = static_cast<int>(reporter.repetitions().size());
  if (!reporter.repetitions().empty()) stats.iterations = reporter.repetitions().front().iterations;
  auto value_of = [&](const benchmark::BenchmarkReporter::Run& run) {
    return counter.empty() ? aggregate_value(run) : counter_value(run, counter);
  };
  for (const auto& run : reporter.repetitions()) stats.samples_ms.push_back(value_of(run));
  const auto& aggregates = reporter.aggregates();
  if (aggregates.empty()) {
    // Google Benchmark computes no aggregates for a single repetition: that sample is all.
    if (reporter.repetitions().empty()) return stats;
    double only = stats.samples_ms.front();
    stats.median_ms = stats.mean_ms = stats.min_ms = stats.max_ms = only;
    return stats;
  }
  auto get = [&](const char* name) {
    auto it = aggregates.find(name);
    return it == aggregates.end() ? 0.0 : value_of(it->second);
  };
  stats.median_ms = get("median");
  stats.mean_ms = get("mean");
  stats.stddev_ms = get("stddev");
  stats.min_ms = get("min");
  stats.max_ms = get("max");
  // cv of a counter is the counter's stddev over its mean (Google Benchmark's own for the time).
  stats.cv =
      counter.empty() ? get("cv") : (stats.mean_ms > 0 ? stats.stddev_ms / stats.mean_ms : 0);
  return stats;
}

}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

TimeStats summarize_samples(const std::vector<double>& samples_ms, std::int64_t iterations) {
  TimeStats stats;
  stats.samples_ms = samples_ms;
  stats.repetitions = static_cast<int>(samples_ms.size());
  stats.iterations = iterations;
  if (samples_ms.empty()) return stats;
  // As Google Benchmark defines them (its statistics.cc, whose functions its header does not
  // declare): the median of an even count is the mean of the middle two; the stddev is the
  // sample's (n - 1); both 0 for a single sample.
  const double n = static_cast<double>(samples_ms.size());
  double sum = 0;
  for (double sample : samples_ms) sum += sample;
  stats.mean_ms = sum / n;
  stats.median_ms = median_of(samples_ms);
  if (samples_ms.size() > 1) {
    double squares = 0;
    for (double sample : samples_ms) squares += (sample - stats.mean_ms) * (sample - stats.mean_ms);
    stats.stddev_ms = std::sqrt(squares / (n - 1));
    stats.cv = stats.mean_ms > 0 ? stats.stddev_ms / stats.mean_ms : 0;
  }
  stats.min_ms = minimum(samples_ms);
  stats.max_ms = maximum(samples_ms);
  return stats;
}

Measurement measure(const std::string& name, const MeasureSettings& settings,
                    const SampleFunction& sample) {
  initialize_once();
  std::exception_ptr failure;
  std::vector<std::string> part_names;
  auto body = [&](benchmark::State& state) {
    // Google Benchmark runs every repetition after a failed one: the rest are not sampled.
    if (failure) {
      state.SkipWithError("an earlier sample failed");
      return;
    }
    for (auto _ : state) {
      Sample result;
      try {
        result = sample();
      } catch (...) {
        failure = std::current_exception();
        state.SkipWithError("sample failed");
        break;
      }
      state.SetIterationTime(result.total_ms / 1e3);
      for (const auto& [part, ms] : result.parts_ms) {
        if (std::find(part_names.begin(), part_names.end(), part) == part_names.end()) {
          part_names.push_back(part);
        }
        // Summed here, divided by the iterations by Google Benchmark: the mean per call.
        state.counters[part] += benchmark::Counter(ms, benchmark::Counter::kAvgIterations);
      }
    }
  };
  benchmark::internal::Benchmark* bench = benchmark::RegisterBenchmark(name.c_str(), body);
  bench->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Repetitions(std::max(1, settings.repetitions))
      ->ComputeStatistics("min", &minimum)
      ->ComputeStatistics("max", &maximum);
  if (settings.iterations > 0) {
    bench->Iterations(settings.iterations);
  } else if (settings.min_time > 0) {
    bench->MinTime(settings.min_time);
  } else {
    bench->Iterations(1);
  }
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  if (failure) std::rethrow_exception(failure);

  Measurement measurement;
  measurement.total = stats_from(reporter, "");
  for (const std::string& part : part_names) measurement.parts[part] = stats_from(reporter, part);
  return measurement;
}

}  // namespace plugbench
