// test_measurement.cpp: the statistics come from Google Benchmark and describe the samples given.
#include "measure/cell_protocol.hpp"
#include "measure/measurement.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace plugbench {
namespace {

TEST(Measurement, StatisticsDescribeTheSamples) {
  int call = 0;
  // Samples 1, 2, ..., 9 ms (in a shuffled order): median 5, mean 5, min 1, max 9.
  const double samples[] = {5, 1, 9, 2, 8, 3, 7, 4, 6};
  Measurement m = measure("test/statistics", {9, 0}, [&] {
    Sample s;
    s.total_ms = samples[call % 9];
    s.parts_ms["half"] = samples[call % 9] / 2;
    ++call;
    return s;
  });
  EXPECT_EQ(call, 9);
  EXPECT_EQ(m.total.repetitions, 9);
  EXPECT_EQ(m.total.iterations, 1);
  EXPECT_NEAR(m.total.median_ms, 5, 1e-9);
  EXPECT_NEAR(m.total.mean_ms, 5, 1e-9);
  EXPECT_NEAR(m.total.min_ms, 1, 1e-9);
  EXPECT_NEAR(m.total.max_ms, 9, 1e-9);
  EXPECT_NEAR(m.total.stddev_ms, 2.7386127875, 1e-6);  // sample standard deviation
  EXPECT_NEAR(m.total.cv, 2.7386127875 / 5, 1e-6);
  ASSERT_EQ(m.parts.count("half"), 1u);
  EXPECT_NEAR(m.parts["half"].median_ms, 2.5, 1e-9);
  EXPECT_NEAR(m.parts["half"].max_ms, 4.5, 1e-9);
}

TEST(Measurement, ASingleRepetitionIsItsOwnStatistics) {
  Measurement m = measure("test/single", {1, 0}, [] {
    Sample s;
    s.total_ms = 3.5;
    return s;
  });
  EXPECT_EQ(m.total.repetitions, 1);
  EXPECT_DOUBLE_EQ(m.total.median_ms, 3.5);
  EXPECT_DOUBLE_EQ(m.total.min_ms, 3.5);
  EXPECT_DOUBLE_EQ(m.total.max_ms, 3.5);
}

TEST(Measurement, MinTimeAveragesSeveralCallsPerRepetition) {
  Measurement m = measure("test/min_time", {2, 0.001}, [] {
    Sample s;
    s.total_ms = 0.01;  // 10 us of manual time: Google Benchmark needs many calls for 1 ms
    return s;
  });
  EXPECT_GT(m.total.iterations, 1);
  EXPECT_NEAR(m.total.median_ms, 0.01, 1e-9);
}

TEST(Measurement, AFailingSampleEndsTheMeasurementWithItsError) {
  EXPECT_THROW(
      measure("test/failure", {3, 0}, []() -> Sample { throw std::runtime_error("boom"); }),
      std::runtime_error);
}

TEST(Measurement, AutomaticRepetitionsFitTheBudget) {
  EXPECT_EQ(automatic_repetitions(0.001, 2.0), kDefaultRepetitions);
  EXPECT_EQ(automatic_repetitions(200, 2.0), 10);
  EXPECT_EQ(automatic_repetitions(5000, 2.0), kMinAutomaticRepetitions);
}

}  // namespace
}  // namespace plugbench
