// compact.cpp: stream compaction, the nonzero int32 values in their order (the seeds' scan report).
//
// Reference:
//   count = 0;
//   for (i = 0; i < n; ++i) if (x[i] != 0) kept[count++] = x[i];
//
// Only kept[0, count) is checked; a kernel may leave the rest of kept as it likes, so the minimum
// traffic writes count elements, not n.
//
// Inputs: keep50 / keep1 / keep99: each element is nonzero with probability 50 % / 1 % / 99 %
// (std::bernoulli_distribution on one std::mt19937, seed 5); a nonzero value is 1 + gen() % 1000,
// negated when it is a multiple of 4, so that a kernel keeping x > 0 instead of x != 0 fails.
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <cstdint>
#include <random>

namespace plugbench {
namespace {

struct CompactReference : Reference {
  std::vector<std::int32_t> kept;  // exactly the nonzero values
};

class Compact final : public Workload {
 public:
  std::string name() const override { return "compact"; }
  std::string description() const override {
    return "stream compaction: the nonzero int32 values, in order, and their count";
  }
  std::vector<std::string> distributions() const override { return {"keep50", "keep1", "keep99"}; }
  std::vector<std::string> default_sizes() const override { return {"2^20", "2^24"}; }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    ProblemData problem = make_problem(name(), distribution, shape);
    HostArray x("x", ElementType::int32, shape.n);
    const double keep_probability = distribution == "keep1"    ? 0.01
                                    : distribution == "keep99" ? 0.99
                                                               : 0.5;
    std::mt19937 gen(5);
    std::bernoulli_distribution keep(keep_probability);
    for (std::int32_t& value : x.as<std::int32_t>()) {
      if (!keep(gen)) {
        value = 0;
        continue;
      }
      const auto magnitude = static_cast<std::int32_t>(1 + gen() % 1000);
      value = magnitude % 4 == 0 ? -magnitude : magnitude;
    }
    problem.inputs.push_back(std::move(x));
    problem.outputs.push_back({"kept", ElementType::int32, shape.n});
    problem.outputs.push_back({"count", ElementType::uint64, 1});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    auto result = std::make_shared<CompactReference>();
    for (std::int32_t value : problem.inputs[0].as<std::int32_t>()) {
      if (value != 0) result->kept.push_back(value);
    }
    return result;
  }

  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const auto& expected = dynamic_cast<const CompactReference&>(reference).kept;
    const std::string compared = "count and kept elements of " + std::to_string(problem.shape.n) +
                                 " int32 (" + std::to_string(expected.size()) + " nonzero)";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    const std::uint64_t count = outputs[1].as<std::uint64_t>()[0];
    if (count != expected.size()) {
      Verification result;
      result.compared = compared;
      result.error_measure = "count difference";
      result.error = count > expected.size() ? static_cast<double>(count - expected.size())
                                             : static_cast<double>(expected.size() - count);
      result.tolerance = 0;
      result.detail = "count: expected " + std::to_string(expected.size()) + ", got " +
                      std::to_string(count) +
                      (count > problem.shape.n ? ", more than the n inputs" : "");
      return result;
    }
    return compare_exactly(compared, "kept element", "kept elements",
                           std::span<const std::int32_t>(expected),
                           outputs[0].as<std::int32_t>().first(expected.size()));
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    write_vector(out, dynamic_cast<const CompactReference&>(reference).kept);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<CompactReference>();
    result->kept = read_vector<std::int32_t>(in);
    return result;
  }

  // Reads x once, writes the kept elements and the count once.
  Traffic traffic(const ProblemData& problem, const Reference& reference) const override {
    Traffic traffic = minimum_traffic(problem, *peak_pattern());
    const auto kept = dynamic_cast<const CompactReference&>(reference).kept.size();
    traffic.bytes_written =
        static_cast<double>(kept * sizeof(std::int32_t) + sizeof(std::uint64_t));
    return traffic;
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Compact);

}  // namespace
}  // namespace plugbench
