// reduce.cpp: the sum of n int32 values, accumulated in int64 (the seeds' reduce.cu).
//
// Reference:
//   int64_t sum = 0;
//   for (i = 0; i < n; ++i) sum += x[i];
//
// Verification: exact (integers): the sum must equal the reference's.
//
// Inputs, from one std::mt19937 (seed 26):
//   mod100:   x = gen() % 100 (the seeds' data; the default);
//   signed:   x = gen() % 201 - 100, so the sum goes down as well as up;
//   near_max: x = INT32_MAX - gen() % 65536: two values overflow an int32 accumulator, three a
//             uint32 one, so a narrow accumulator fails from n = 7 on (every --check-plugin size
//             past 1), where mod100 needs 2^25 values. Not in the default run (its answer says
//             nothing new about speed);
//             --check-plugin and the plugin-matrix tests run it.
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <cstdint>
#include <limits>
#include <random>

namespace plugbench {
namespace {

struct ReduceReference : Reference {
  std::int64_t sum = 0;
};

class Reduce final : public Workload {
 public:
  std::string name() const override { return "reduce"; }
  std::string description() const override { return "sum of int32 values, as int64"; }
  std::vector<std::string> distributions() const override {
    return {"mod100", "signed", "near_max"};
  }
  std::vector<std::string> default_sizes() const override { return {"2^20", "2^24"}; }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    ProblemData problem = make_problem(name(), distribution, shape);
    HostArray x("x", ElementType::int32, shape.n);
    std::mt19937 gen(26);  // the seeds' seed: 2^26 mod100 values sum to 3321858913
    for (std::int32_t& value : x.as<std::int32_t>()) {
      if (distribution == "signed") {
        value = static_cast<std::int32_t>(gen() % 201) - 100;
      } else if (distribution == "near_max") {
        value = std::numeric_limits<std::int32_t>::max() - static_cast<std::int32_t>(gen() % 65536);
      } else {
        value = static_cast<std::int32_t>(gen() % 100);
      }
    }
    problem.inputs.push_back(std::move(x));
    problem.outputs.push_back({"sum", ElementType::int64, 1});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    auto result = std::make_shared<ReduceReference>();
    for (std::int32_t value : problem.inputs[0].as<std::int32_t>()) result->sum += value;
    return result;
  }

  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const std::int64_t expected = dynamic_cast<const ReduceReference&>(reference).sum;
    const std::string compared = "sum of " + std::to_string(problem.shape.n) + " int32 as int64";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    const std::int64_t got = outputs[0].as<std::int64_t>()[0];
    Verification result;
    result.compared = compared;
    result.error_measure = "absolute difference";
    result.error = static_cast<double>(absolute_difference(got, expected));
    result.tolerance = 0;
    result.passed = got == expected;
    result.detail = result.passed
                        ? "sum " + std::to_string(expected) + " matches"
                        : "expected " + std::to_string(expected) + ", got " + std::to_string(got);
    return result;
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    write_value(out, dynamic_cast<const ReduceReference&>(reference).sum);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<ReduceReference>();
    result->sum = read_value<std::int64_t>(in);
    return result;
  }

  std::optional<MemoryPattern> peak_pattern() const override { return MemoryPattern::read; }
  Traffic traffic(const ProblemData& problem, const Reference&) const override {
    return minimum_traffic(problem, *peak_pattern());
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Reduce);

}  // namespace
}  // namespace plugbench
