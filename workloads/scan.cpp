// scan.cpp: the exclusive prefix sum of n int32 values, modulo 2^32 (the seeds' scan report).
//
// Reference:
//   uint32_t running = 0;
//   for (i = 0; i < n; ++i) { prefix[i] = running; running += (uint32_t)x[i]; }
//
// Sums wrap modulo 2^32 (two's complement int32), so every correct scan order gives the same bits.
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <cstdint>
#include <random>

namespace plugbench {
namespace {

struct ScanReference : Reference {
  std::vector<std::int32_t> prefix;
};

class Scan final : public Workload {
 public:
  std::string name() const override { return "scan"; }
  std::string description() const override {
    return "exclusive prefix sum of int32 values, modulo 2^32";
  }
  // small: x = gen() % 8, sums stay far from overflow; random: full 32-bit values, sums wrap.
  std::vector<std::string> distributions() const override { return {"small", "random"}; }
  std::vector<std::string> default_sizes() const override { return {"2^20", "2^24"}; }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    ProblemData problem = make_problem(name(), distribution, shape);
    HostArray x("x", ElementType::int32, shape.n);
    std::mt19937 gen(3);
    const bool small = distribution == "small";
    for (std::int32_t& value : x.as<std::int32_t>()) {
      value = static_cast<std::int32_t>(small ? gen() % 8 : gen());
    }
    problem.inputs.push_back(std::move(x));
    problem.outputs.push_back({"prefix", ElementType::int32, shape.n});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    std::span<const std::int32_t> xs = problem.inputs[0].as<std::int32_t>();
    auto result = std::make_shared<ScanReference>();
    result->prefix.resize(xs.size());
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      result->prefix[i] = static_cast<std::int32_t>(running);
      running += static_cast<std::uint32_t>(xs[i]);
    }
    return result;
  }

  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const auto& expected = dynamic_cast<const ScanReference&>(reference).prefix;
    const std::string compared =
        "exclusive prefix sums of " + std::to_string(problem.shape.n) + " int32 (modulo 2^32)";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    return compare_exactly(compared, "element", "elements", std::span<const std::int32_t>(expected),
                           outputs[0].as<std::int32_t>());
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    write_vector(out, dynamic_cast<const ScanReference&>(reference).prefix);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<ScanReference>();
    result->prefix = read_vector<std::int32_t>(in);
    return result;
  }

  Traffic traffic(const ProblemData& problem, const Reference&) const override {
    return minimum_traffic(problem, *peak_pattern());
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Scan);

}  // namespace
}  // namespace plugbench
