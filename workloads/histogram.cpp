// histogram.cpp: a 256-bin histogram of an 8-bit image (the seeds' histogram.cu).
//
// Reference:
//   uint32_t counts[256] = {0};
//   for (i = 0; i < n; ++i) ++counts[pixels[i]];
//
// Inputs: an image of width = min(n, 7680) columns; pixel i lies in column i % width (the last row
// may be short when n is not a multiple of the width).
//   photo: the seeds' gradient with noise, drawn in row-major order from one std::mt19937 (seed 8):
//            pixel = (uint8) clamp(60.0f + 140.0f * column / width + noise(gen), 0, 255),
//          noise = std::normal_distribution<float>(0, 12); the 8K image uses 248 bins;
//   flat:  every pixel 128, so every increment hits one bin (the worst case for atomics).
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>

namespace plugbench {
namespace {

constexpr std::uint32_t kBins = 256;
constexpr std::uint64_t kMaxWidth = 7680;  // an 8K image's width

struct HistogramReference : Reference {
  std::array<std::uint32_t, kBins> counts{};
};

class Histogram final : public Workload {
 public:
  std::string name() const override { return "histogram"; }
  std::string description() const override { return "256-bin histogram of 8-bit pixels"; }
  std::vector<std::string> distributions() const override { return {"photo", "flat"}; }
  std::vector<std::string> default_sizes() const override { return {"2^20", "7680x4320"}; }
  bool is_image() const override { return true; }

  Shape shape_for_count(std::uint64_t n) const override {
    if (n == 0) return {0, 0, 0};
    const std::uint64_t width = std::min(n, kMaxWidth);
    return {n, width, (n + width - 1) / width};
  }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    if (shape.n > 0 && shape.width == 0) {
      throw std::invalid_argument("histogram: an image of " + std::to_string(shape.n) +
                                  " pixels needs a width");
    }
    ProblemData problem = make_problem(name(), distribution, shape);
    problem.params.bins = kBins;
    HostArray pixels("pixels", ElementType::uint8, shape.n);
    std::span<std::uint8_t> values = pixels.as<std::uint8_t>();
    if (distribution == "flat") {
      std::fill(values.begin(), values.end(), std::uint8_t{128});
    } else {
      std::mt19937 gen(8);
      std::normal_distribution<float> noise(0.0f, 12.0f);
      const float width = static_cast<float>(shape.width);
      for (std::size_t i = 0; i < values.size(); ++i) {
        const float column = static_cast<float>(i % shape.width);
        values[i] = static_cast<std::uint8_t>(
            std::clamp(60.0f + 140.0f * column / width + noise(gen), 0.0f, 255.0f));
      }
    }
    problem.inputs.push_back(std::move(pixels));
    problem.outputs.push_back({"counts", ElementType::uint32, kBins});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    auto result = std::make_shared<HistogramReference>();
    for (std::uint8_t pixel : problem.inputs[0].as<std::uint8_t>()) ++result->counts[pixel];
    return result;
  }

  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const auto& expected = dynamic_cast<const HistogramReference&>(reference).counts;
    const std::string compared =
        "256-bin histogram of " + std::to_string(problem.shape.n) + " uint8 pixels";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    return compare_exactly(compared, "bin", "bins", std::span<const std::uint32_t>(expected),
                           outputs[0].as<std::uint32_t>());
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    write_value(out, dynamic_cast<const HistogramReference&>(reference).counts);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<HistogramReference>();
    result->counts = read_value<decltype(result->counts)>(in);
    return result;
  }

  std::optional<MemoryPattern> peak_pattern() const override { return MemoryPattern::read; }
  Traffic traffic(const ProblemData& problem, const Reference&) const override {
    return minimum_traffic(problem, *peak_pattern());
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Histogram);

}  // namespace
}  // namespace plugbench
