// measurement.hpp: samples timed by the caller (a plugin's timer), repeated and summarised by
// Google Benchmark (manual time, repetitions, its median / mean / stddev / cv, plus min and max).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {

// Statistics of one timed quantity over the repetitions, in milliseconds.
struct TimeStats {
  double median_ms = 0;
  double mean_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double stddev_ms = 0;
  double cv = 0;  // stddev / mean
  int repetitions = 0;
  std::int64_t iterations = 0;  // calls per repetition (more than 1 with --min-time)
  // Each repetition's time, in the order they ran: what `harness compare` tests for a change.
  std::vector<double> samples_ms;
};

// One sample: its total time and named parts of it (e.g. copy_in, kernel, copy_out).
struct Sample {
  double total_ms = 0;
  std::map<std::string, double> parts_ms;
};

struct Measurement {
  TimeStats total;
  std::map<std::string, TimeStats> parts;
};

struct MeasureSettings {
  int repetitions = 10;
  double min_time = 0;  // seconds per repetition; 0 means exactly one call per repetition
  // Calls per repetition, as a first repetition under min_time found them (0: found anew), so
  // that samples taken one at a time pay Google Benchmark's search for the count only once.
  std::int64_t iterations = 0;
};

// An exception thrown by a sample ends the measurement; measure() rethrows it.
using SampleFunction = std::function<Sample()>;

// The median as Google Benchmark gives it: of an even count, the mean of the middle two. Empty: 0.
double median_of(std::vector<double> values);

// The statistics of samples taken one at a time, between other cells' (interleaved rounds): the
// figures Google Benchmark's aggregates give (its median, mean, sample stddev and cv), min and max.
TimeStats summarize_samples(const std::vector<double>& samples_ms, std::int64_t iterations);

// Runs `sample` under Google Benchmark as a benchmark named `name`.
Measurement measure(const std::string& name, const MeasureSettings& settings,
                    const SampleFunction& sample);

}  // namespace plugbench
