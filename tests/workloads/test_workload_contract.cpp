// test_workload_contract.cpp: what every workload promises the harness: registration, fixed seeds,
// a clear error for an unknown distribution, empty problems, and verifiers that survive garbage.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace plugbench {
namespace {

using test::workload;

const std::vector<std::string> kWorkloads = {"reduce",     "dot",         "histogram",
                                             "scan",       "compact",     "sort",
                                             "mandelbrot", "dist_reduce", "dist_sort"};

bool same_bytes(const HostArray& a, const HostArray& b) {
  return a.size_bytes() == b.size_bytes() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size_bytes())) == 0;
}

TEST(WorkloadRegistry, HoldsEveryWorkloadInDisplayOrder) {
  std::vector<std::string> names;
  for (const Workload* w : WorkloadRegistry::instance().all()) names.push_back(w->name());
  EXPECT_EQ(names, kWorkloads);
}

class EveryWorkload : public ::testing::TestWithParam<std::string> {
 protected:
  const Workload& w = workload(GetParam());
};

TEST_P(EveryWorkload, NamesDistributionsAndDefaultSizes) {
  EXPECT_EQ(w.name(), GetParam());
  EXPECT_FALSE(w.description().empty());
  EXPECT_FALSE(w.distributions().empty());
  EXPECT_FALSE(w.default_sizes().empty());
}

TEST_P(EveryWorkload, GeneratesTheSameDataForTheSameSeed) {
  for (const std::string& distribution : w.distributions()) {
    const ProblemData first = w.generate(w.shape_for_count(1000), distribution);
    const ProblemData second = w.generate(w.shape_for_count(1000), distribution);
    ASSERT_EQ(first.inputs.size(), second.inputs.size());
    for (std::size_t i = 0; i < first.inputs.size(); ++i) {
      EXPECT_TRUE(same_bytes(first.inputs[i], second.inputs[i])) << distribution;
    }
    EXPECT_EQ(first.workload, GetParam());
    EXPECT_EQ(first.distribution, distribution);
    EXPECT_EQ(first.params.n, first.shape.n);
  }
}

// The run calibrates the host peaks the workloads' peak_pattern names, before any problem exists:
// the pattern a cell is then held to (its traffic's) must be that one, or it would be held to a
// peak that was not measured.
TEST_P(EveryWorkload, ItsPeakPatternIsItsTrafficsPattern) {
  const ProblemData problem = w.generate(w.shape_for_count(1000), w.distributions().front());
  const Traffic traffic = w.traffic(problem, *w.reference(problem));
  if (!traffic.work_unit.empty()) {
    EXPECT_FALSE(w.peak_pattern()) << "measured in " << traffic.work_unit << ", not bytes";
    return;
  }
  ASSERT_TRUE(w.peak_pattern());
  EXPECT_EQ(*w.peak_pattern(), traffic.pattern);
}

TEST_P(EveryWorkload, UnknownDistributionThrowsNamingTheValidOnes) {
  try {
    w.generate(w.shape_for_count(10), "no_such_distribution");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("no_such_distribution"), std::string::npos) << message;
    for (const std::string& valid : w.distributions()) {
      EXPECT_NE(message.find(valid), std::string::npos) << message;
    }
  }
}

// With no elements every output is either empty or a fixed-size result whose right value is 0.
TEST_P(EveryWorkload, EmptyProblemPassesWithZeroOutputs) {
  const Shape empty = w.is_image() ? Shape{0, 0, 0} : Shape{0, 0, 1};
  for (const std::string& distribution : w.distributions()) {
    const ProblemData problem = w.generate(empty, distribution);
    for (const HostArray& input : problem.inputs) EXPECT_EQ(input.count(), 0u);
    std::vector<HostArray> outputs = problem.make_outputs();
    for (HostArray& output : outputs) output.fill_bytes(0);
    const auto reference = w.reference(problem);
    const Verification result = w.verify(problem, *reference, outputs);
    EXPECT_TRUE(result.passed) << distribution << ": " << result.detail;
    EXPECT_EQ(w.traffic(problem, *reference).bytes_read, 0);
  }
}

TEST_P(EveryWorkload, GarbageOutputsFailWithoutCrashing) {
  for (const std::string& distribution : w.distributions()) {
    const ProblemData problem = w.generate(w.shape_for_count(1000), distribution);
    const auto reference = w.reference(problem);
    for (unsigned char poison : {0x00, 0xA5, 0xFF}) {
      std::vector<HostArray> outputs = problem.make_outputs();
      for (HostArray& output : outputs) output.fill_bytes(poison);
      const Verification result = w.verify(problem, *reference, outputs);
      EXPECT_FALSE(result.passed) << distribution << ", bytes " << int{poison};
      EXPECT_FALSE(result.detail.empty());
      EXPECT_FALSE(result.error_measure.empty());
      EXPECT_FALSE(result.compared.empty());
    }
  }
}

TEST_P(EveryWorkload, OutputsOfTheWrongLayoutFailWithoutCrashing) {
  const ProblemData problem = test::generate(GetParam(), 100);
  const auto reference = w.reference(problem);
  EXPECT_FALSE(w.verify(problem, *reference, {}).passed);
  for (std::size_t i = 0; i < problem.outputs.size(); ++i) {
    const OutputSpec& spec = problem.outputs[i];
    std::vector<HostArray> one_more = problem.make_outputs();
    one_more[i] = HostArray(spec.name, spec.type, spec.count + 1);
    EXPECT_FALSE(w.verify(problem, *reference, one_more).passed) << spec.name;

    std::vector<HostArray> other_type = problem.make_outputs();
    const ElementType wrong =
        spec.type == ElementType::uint8 ? ElementType::int64 : ElementType::uint8;
    other_type[i] = HostArray(spec.name, wrong, spec.count);
    const Verification result = w.verify(problem, *reference, other_type);
    EXPECT_FALSE(result.passed) << spec.name;
    EXPECT_NE(result.detail.find(spec.name), std::string::npos) << result.detail;
  }
}

INSTANTIATE_TEST_SUITE_P(Workloads, EveryWorkload, ::testing::ValuesIn(kWorkloads),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return param.param;
                         });

}  // namespace
}  // namespace plugbench
