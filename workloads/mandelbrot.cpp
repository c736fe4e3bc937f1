// mandelbrot.cpp: escape iterations of every pixel of a Mandelbrot image (the seeds' ILGPU demo).
//
// The arithmetic, which every plugin must follow operation for operation (float32, each operation
// rounded to nearest even; docs/writing-a-plugin.md says the same to plugin authors):
//   re_min = (float)region[0]   re_span = (float)(region[1] - region[0])   (difference in double)
//   im_min = (float)region[2]   im_span = (float)(region[3] - region[2])
//   pixel (x, y), x in [0, width), y in [0, height), is the point at its corner, not its centre:
//     cr = re_min + (re_span * (float)x) / (float)width     mul, correctly rounded div, add
//     ci = im_min + (im_span * (float)y) / (float)height
//   zr = 0, zi = 0, k = 0
//   while (k < max_iterations) {
//     zr2 = zr * zr;  zi2 = zi * zi;
//     if (!(zr2 + zi2 <= 4.0f)) break;          escape test before each step: |z|^2 <= 4 goes on
//     t  = (zr2 - zi2) + cr;
//     zi = (2 * zr) * zi + ci;                  the only place an FMA may contract: fmaf(2*zr, zi,
//     ci) zr = t;
//     ++k;
//   }
//   iterations[y * width + x] = k                (row-major int32, always in [1, max_iterations])
// -2.2f, 3.0f, -1.0f, 2.0f are the default region's re_min, re_span, im_min, im_span. The totals
// without FMA are the seeds' CPU figures: 237691869 at 1280x720, 2138019184 at 3840x2160; with the
// FMA, 237692026 and 2138011870 (the H200 anchors': nvcc contracts exactly that one expression).
//
// Verification: exact. A pixel is right when it equals the reference without FMA (the host
// plugins, -ffp-contract=off) or the reference with the one FMA above (the CUDA plugins, which
// write every operation with __fmul_rn/__fadd_rn/__fsub_rn/__fdiv_rn and __fmaf_rn); any other
// value is wrong, however few such pixels there are. No tolerance: the iteration is chaotic near
// the set's boundary, so any other rounding (another pixel mapping, pixel centres, the mapping in
// double, other contractions, nvcc --use_fast_math) moves 0.3 % of the pixels or more, as much as
// the one FMA does, and a tolerance that let the FMA through would let those through too.
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace plugbench {
namespace {

constexpr std::uint32_t kMaxIterations = 1000;
constexpr double kRegion[4] = {-2.2, 0.8, -1.0, 1.0};  // re_min, re_max, im_min, im_max

struct MandelbrotReference : Reference {
  std::vector<std::int32_t> iterations;  // without FMA
  std::uint64_t total = 0;
};

// Whether zi = 2*zr*zi + ci is one fused multiply-add (the GPU kernels) or a rounded product and
// a rounded sum (the host plugins). This file is built with -ffp-contract=off, so nothing else
// fuses.
enum class Contraction { none, fma_in_zi };

// A template parameter, so that the reference's loop carries no test of it.
template <Contraction kContraction>
int escape_iterations(float cr, float ci, int max_iterations) {
  float zr = 0;
  float zi = 0;
  int k = 0;
  while (k < max_iterations) {
    const float zr2 = zr * zr;
    const float zi2 = zi * zi;
    if (!(zr2 + zi2 <= 4.0f)) break;
    const float t = (zr2 - zi2) + cr;
    if constexpr (kContraction == Contraction::fma_in_zi) {
      zi = std::fma(2 * zr, zi, ci);
    } else {
      zi = 2 * zr * zi + ci;
    }
    zr = t;
    ++k;
  }
  return k;
}

// The problem's pixel-to-point mapping, in float as the arithmetic above gives it.
class PixelGrid {
 public:
  explicit PixelGrid(const pb_problem& params)
      : re_min_(static_cast<float>(params.region[0])),
        re_span_(static_cast<float>(params.region[1] - params.region[0])),
        im_min_(static_cast<float>(params.region[2])),
        im_span_(static_cast<float>(params.region[3] - params.region[2])),
        width_(static_cast<float>(params.width)),
        height_(static_cast<float>(params.height)),
        max_iterations_(static_cast<int>(params.max_iterations)) {}

  float re(std::uint64_t x) const { return re_min_ + re_span_ * static_cast<float>(x) / width_; }
  float im(std::uint64_t y) const { return im_min_ + im_span_ * static_cast<float>(y) / height_; }
  template <Contraction kContraction>
  int iterations(std::uint64_t x, std::uint64_t y) const {
    return escape_iterations<kContraction>(re(x), im(y), max_iterations_);
  }

 private:
  float re_min_, re_span_, im_min_, im_span_, width_, height_;
  int max_iterations_;
};

// "(x, y)". Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) on
// "(" + std::to_string(...).
std::string pixel_name(std::uint64_t index, std::uint64_t width) {
  std::string name = "(";
  name += std::to_string(index % width);
  name += ", ";
  name += std::to_string(index / width);
  name += ")";
  return name;
}

class Mandelbrot final : public Workload {
 public:
  std::string name() const override { return "mandelbrot"; }
  std::string description() const override {
    return "Mandelbrot escape iterations per pixel, float32, at most 1000";
  }
  std::vector<std::string> distributions() const override { return {"full"}; }
  std::vector<std::string> default_sizes() const override { return {"1280x720"}; }
  bool is_image() const override { return true; }

  // A 16:9 image of about n pixels.
  Shape shape_for_count(std::uint64_t n) const override {
    const auto height =
        std::max<long long>(1, std::llround(std::sqrt(static_cast<double>(n) * 9 / 16.0)));
    const auto width =
        std::max<long long>(1, std::llround(static_cast<double>(n) / static_cast<double>(height)));
    const auto w = static_cast<std::uint64_t>(width);
    const auto h = static_cast<std::uint64_t>(height);
    return {w * h, w, h};
  }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    if (shape.n != shape.width * shape.height) {
      throw std::invalid_argument("mandelbrot: n = " + std::to_string(shape.n) + " is not " +
                                  std::to_string(shape.width) + " x " +
                                  std::to_string(shape.height));
    }
    ProblemData problem = make_problem(name(), distribution, shape);
    problem.params.max_iterations = kMaxIterations;
    std::copy(std::begin(kRegion), std::end(kRegion), std::begin(problem.params.region));
    problem.outputs.push_back({"iterations", ElementType::int32, shape.n});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    const pb_problem& params = problem.params;
    const PixelGrid grid(params);
    auto result = std::make_shared<MandelbrotReference>();
    result->iterations.resize(problem.shape.n);
    // Rows in parallel: each pixel's count is the same serial arithmetic, so the reference does
    // not depend on the thread count; only its cost does (a 4K frame is seconds on one core).
    std::uint64_t total = 0;
    const auto rows = static_cast<std::int64_t>(params.height);
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : total)
    for (std::int64_t y = 0; y < rows; ++y) {
      for (std::uint64_t x = 0; x < params.width; ++x) {
        const int k = grid.iterations<Contraction::none>(x, static_cast<std::uint64_t>(y));
        result->iterations[static_cast<std::uint64_t>(y) * params.width + x] = k;
        total += static_cast<std::uint64_t>(k);
      }
    }
    result->total = total;
    return result;
  }

  // Exact, pixel by pixel: the reference's count, or the count with the FMA (computed here only
  // for the pixels that differ from the reference, about 0.3 % of a GPU plugin's image).
  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const auto& expected = dynamic_cast<const MandelbrotReference&>(reference);
    const std::uint64_t width = problem.shape.width;
    const std::string compared = "iteration counts of " + std::to_string(width) + "x" +
                                 std::to_string(problem.shape.height) + " pixels (at most " +
                                 std::to_string(problem.params.max_iterations) +
                                 "), each against the references without and with FMA";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    std::span<const std::int32_t> got = outputs[0].as<std::int32_t>();
    const PixelGrid grid(problem.params);

    const auto pixels = static_cast<std::int64_t>(got.size());
    std::uint64_t wrong = 0;
    std::uint64_t fused = 0;  // right only as the FMA reference
    std::int64_t first_wrong = pixels;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : wrong, fused) \
    reduction(min : first_wrong)
    for (std::int64_t i = 0; i < pixels; ++i) {
      const auto pixel = static_cast<std::uint64_t>(i);
      if (got[pixel] == expected.iterations[pixel]) continue;
      if (got[pixel] == grid.iterations<Contraction::fma_in_zi>(pixel % width, pixel / width)) {
        ++fused;
        continue;
      }
      ++wrong;
      first_wrong = std::min(first_wrong, i);
    }

    Verification result;
    result.compared = compared;
    result.error_measure = "pixels equal to neither reference";
    result.error = static_cast<double>(wrong);
    result.tolerance = 0;
    result.passed = wrong == 0;
    const std::string total = std::to_string(got.size());
    if (result.passed) {
      result.detail = "all " + total + " pixels match (" + std::to_string(fused) +
                      " of them the FMA reference only)";
    } else {
      const auto i = static_cast<std::uint64_t>(first_wrong);
      const int with_fma = grid.iterations<Contraction::fma_in_zi>(i % width, i / width);
      result.detail = std::to_string(wrong) + " of " + total +
                      " pixels differ from both references; first " + pixel_name(i, width) +
                      ": expected " + std::to_string(expected.iterations[i]) + " (" +
                      std::to_string(with_fma) + " with FMA), got " + std::to_string(got[i]);
    }
    return result;
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    const auto& r = dynamic_cast<const MandelbrotReference&>(reference);
    write_vector(out, r.iterations);
    write_value(out, r.total);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<MandelbrotReference>();
    result->iterations = read_vector<std::int32_t>(in);
    result->total = read_value<std::uint64_t>(in);
    return result;
  }

  std::optional<MemoryPattern> peak_pattern() const override {
    return std::nullopt;
  }
  Traffic traffic(const ProblemData& problem, const Reference& reference) const override {
    Traffic traffic = minimum_traffic(problem, MemoryPattern::copy);
    traffic.work = static_cast<double>(dynamic_cast<const MandelbrotReference&>(reference).total);
    traffic.work_unit = "iterations";
    return traffic;
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Mandelbrot);

}  // namespace
}  // namespace plugbench
