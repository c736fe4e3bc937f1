// dot.cpp: the dot product of two float32 vectors, returned as float64 (the seeds' scalar product).
//
// Reference:
//   exact = sum over i of (double)x[i] * (double)y[i]   (a float times a float is exact in double;
//                                                        summed with Neumaier's compensated sum)
//
// Accumulation contract: a plugin forms each product x[i] * y[i] in float32 and may accumulate in
// float32 only in bounded blocks (a tree, pairwise sums, per-thread or per-block partial sums,
// combined the same way), and returns the result as float64. Error = |result - exact| /
// sum |x[i] * y[i]|; tolerance 1e-5: a blocked or tree float sum is off by at most about
// log2(n) * 2^-24 of sum |x * y| (2e-6 at n = 2^28), while one serial float accumulator over 2^20
// or more positive terms loses 1e-3 to 0.2 of the sum (it stops growing once the terms fall below
// half its last place) and fails. A result that is NaN or infinite fails.
//
// Inputs: one std::mt19937 (seed 1) draws x[0], y[0], x[1], y[1], ... in turn, so the data of a
// size is a prefix of the data of every larger size.
//   uniform:     x, y in [0, 1): every product positive (the hard case for a float accumulator);
//   signed:      x, y in [-1, 1): products cancel;
//   large_first: x, y in [0.5, 1) but x[0] = y[0] = 4096: the first product, 2^24, is so large
//                that every later one (< 1, less than half its last place) rounds away when added
//                to a float running sum started with it. A serial float accumulator fails from
//                n = 1000 on (relative error 3e-5; the uniform data need n near 2^20), while a
//                tree or a blocked float sum adds the small products to each other first and
//                passes. Not in the default run; --check-plugin and the plugin-matrix tests run it.
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <cmath>
#include <limits>
#include <random>

namespace plugbench {
namespace {

constexpr double kTolerance = 1e-5;
constexpr float kLargeFirstFactor = 4096;  // x[0] * y[0] = 2^24 in the large_first data

// Neumaier's compensated summation: the error stays near one rounding of the total, whatever n.
class CompensatedSum {
 public:
  void add(double value) {
    const double total = sum_ + value;
    compensation_ +=
        std::fabs(sum_) >= std::fabs(value) ? (sum_ - total) + value : (value - total) + sum_;
    sum_ = total;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0;
  double compensation_ = 0;
};

struct DotReference : Reference {
  double exact = 0;
  double sum_of_magnitudes = 0;  // sum |x[i] * y[i]|: the scale of the rounding errors
};

class Dot final : public Workload {
 public:
  std::string name() const override { return "dot"; }
  std::string description() const override {
    return "dot product of two float32 vectors, float32 products, returned as float64";
  }
  std::vector<std::string> distributions() const override {
    return {"uniform", "signed", "large_first"};
  }
  std::vector<std::string> default_sizes() const override { return {"2^20", "2^24"}; }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    ProblemData problem = make_problem(name(), distribution, shape);
    HostArray x("x", ElementType::float32, shape.n);
    HostArray y("y", ElementType::float32, shape.n);
    std::mt19937 gen(1);
    const float low = distribution == "signed"        ? -1.0f
                      : distribution == "large_first" ? 0.5f
                                                      : 0.0f;
    std::uniform_real_distribution<float> value(low, 1.0f);
    std::span<float> xs = x.as<float>();
    std::span<float> ys = y.as<float>();
    for (std::size_t i = 0; i < xs.size(); ++i) {
      xs[i] = value(gen);
      ys[i] = value(gen);
    }
    if (distribution == "large_first" && !xs.empty()) {
      xs[0] = kLargeFirstFactor;
      ys[0] = kLargeFirstFactor;
    }
    problem.inputs.push_back(std::move(x));
    problem.inputs.push_back(std::move(y));
    problem.outputs.push_back({"dot", ElementType::float64, 1});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    std::span<const float> xs = problem.inputs[0].as<float>();
    std::span<const float> ys = problem.inputs[1].as<float>();
    CompensatedSum exact;
    CompensatedSum magnitudes;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double product = static_cast<double>(xs[i]) * static_cast<double>(ys[i]);
      exact.add(product);
      magnitudes.add(std::fabs(product));
    }
    auto result = std::make_shared<DotReference>();
    result->exact = exact.value();
    result->sum_of_magnitudes = magnitudes.value();
    return result;
  }

  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const auto& expected = dynamic_cast<const DotReference&>(reference);
    const std::string compared =
        "dot of " + std::to_string(problem.shape.n) + " float32 pairs as float64";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    const double got = outputs[0].as<double>()[0];
    Verification result;
    result.compared = compared;
    const std::string versus =
        "got " + format_real(got, 17) + ", exact " + format_real(expected.exact, 17);
    if (expected.sum_of_magnitudes == 0) {
      // Every product is zero, so every float sum is exactly zero too.
      result.error_measure = "absolute difference (the exact dot is 0)";
      result.error = std::isnan(got) ? std::numeric_limits<double>::infinity() : std::fabs(got);
      result.tolerance = 0;
      result.passed = got == 0;
      result.detail = versus;
      return result;
    }
    result.error_measure = "relative error vs sum |x*y|";
    result.tolerance = kTolerance;
    if (!std::isfinite(got)) {
      result.error = std::numeric_limits<double>::infinity();
      result.passed = false;
      result.detail = versus + ": the result is not finite";
      return result;
    }
    result.error = std::fabs(got - expected.exact) / expected.sum_of_magnitudes;
    result.passed = result.error <= kTolerance;
    result.detail = versus + ", sum |x*y| " + format_real(expected.sum_of_magnitudes) +
                    ", relative error " + format_real(result.error, 3) +
                    (result.passed ? " within " : " beyond ") + format_real(kTolerance, 3);
    return result;
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    const auto& r = dynamic_cast<const DotReference&>(reference);
    write_value(out, r.exact);
    write_value(out, r.sum_of_magnitudes);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<DotReference>();
    result->exact = read_value<double>(in);
    result->sum_of_magnitudes = read_value<double>(in);
    return result;
  }

  std::optional<MemoryPattern> peak_pattern() const override { return MemoryPattern::read; }
  Traffic traffic(const ProblemData& problem, const Reference&) const override {
    return minimum_traffic(problem, *peak_pattern());
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Dot);

}  // namespace
}  // namespace plugbench
