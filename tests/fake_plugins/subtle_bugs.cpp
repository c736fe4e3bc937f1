// subtle_bugs.cpp (fake_subtle): kernels with the mistakes that right answers on easy data hide,
// each of which --check-plugin must catch at its sizes (n <= 1000003), and one honest kernel that
// must pass: the GPU's Mandelbrot arithmetic (the one FMA the contract allows) on the host.
// Built with -ffp-contract=off, so that only the std::fma written here fuses.
#include <plugbench/host_services.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace {

// Overflows once the sum passes INT32_MAX (the near_max data: at the second value). Unsigned
// arithmetic, so that the wrap is defined behaviour even under UBSan.
void reduce_int32_accumulator(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  std::uint32_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += static_cast<std::uint32_t>(x[i]);
  *call.output<std::int64_t>(0) = static_cast<std::int32_t>(sum);
}

// One float running sum: once it is 2^24 times a product, adding the product rounds it away.
void dot_float_accumulator(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  float sum = 0.0f;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i] * y[i];
  *call.output<double>(0) = sum;
}

// Orders the keys as int32: every key with the top bit set comes first.
void sort_signed_keys(plugbench::sdk::Call& call) {
  const auto* keys = call.input<std::uint32_t>(0);
  auto* sorted = call.output<std::uint32_t>(0);
  std::copy(keys, keys + call.n(), sorted);
  std::sort(sorted, sorted + call.n(), [](std::uint32_t a, std::uint32_t b) {
    return static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
  });
}

// The contract's iteration from c; `fused` makes zi = 2*zr*zi + ci one FMA.
std::int32_t escape_iterations(float cr, float ci, int max_iterations, bool fused) {
  float zr = 0.0f;
  float zi = 0.0f;
  int k = 0;
  while (k < max_iterations) {
    const float zr2 = zr * zr;
    const float zi2 = zi * zi;
    if (!(zr2 + zi2 <= 4.0f)) break;
    const float t = (zr2 - zi2) + cr;
    zi = fused ? std::fma(2 * zr, zi, ci) : 2 * zr * zi + ci;
    zr = t;
    ++k;
  }
  return k;
}

enum class Mapping { corner_float, centre_float, corner_double };

// The image with pixel (x, y) mapped to c as `mapping` says; only corner_float is the contract's.
void mandelbrot_image(plugbench::sdk::Call& call, Mapping mapping, bool fused) {
  const pb_problem& p = call.problem();
  auto* iterations = call.output<std::int32_t>(0);
  const auto re_min = static_cast<float>(p.region[0]);
  const auto re_span = static_cast<float>(p.region[1] - p.region[0]);
  const auto im_min = static_cast<float>(p.region[2]);
  const auto im_span = static_cast<float>(p.region[3] - p.region[2]);
  const auto max_iterations = static_cast<int>(p.max_iterations);
  const auto point = [&](std::uint64_t i, std::uint64_t extent, float min, float span, double dmin,
                         double dmax) -> float {
    switch (mapping) {
      case Mapping::centre_float:
        return min + span * (static_cast<float>(i) + 0.5f) / static_cast<float>(extent);
      case Mapping::corner_double:
        return static_cast<float>(dmin + (dmax - dmin) * static_cast<double>(i) /
                                             static_cast<double>(extent));
      case Mapping::corner_float:
        break;
    }
    return min + span * static_cast<float>(i) / static_cast<float>(extent);
  };
  for (std::uint64_t y = 0; y < p.height; ++y) {
    const float ci = point(y, p.height, im_min, im_span, p.region[2], p.region[3]);
    for (std::uint64_t x = 0; x < p.width; ++x) {
      const float cr = point(x, p.width, re_min, re_span, p.region[0], p.region[1]);
      iterations[y * p.width + x] = escape_iterations(cr, ci, max_iterations, fused);
    }
  }
}

void mandelbrot_pixel_centres(plugbench::sdk::Call& call) {
  mandelbrot_image(call, Mapping::centre_float, false);
}
void mandelbrot_double_corners(plugbench::sdk::Call& call) {
  mandelbrot_image(call, Mapping::corner_double, false);
}
void mandelbrot_fma_contracted(plugbench::sdk::Call& call) {
  mandelbrot_image(call, Mapping::corner_float, true);
}

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "int32_accumulator",
                  .description = "wrong: sums in 32 bits",
                  .run = reduce_int32_accumulator});
PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "float_accumulator",
                  .description = "wrong: one float running sum",
                  .run = dot_float_accumulator});
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "signed_keys",
                  .description = "wrong: orders the keys as int32",
                  .run = sort_signed_keys});
PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "pixel_centres",
                  .description = "wrong: c at the pixel's centre",
                  .run = mandelbrot_pixel_centres});
PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "double_corners",
                  .description = "wrong: c at the corner, computed in double",
                  .run = mandelbrot_double_corners});
PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "fma_contracted",
                  .description = "right: the contract's arithmetic with its one FMA, as on a GPU",
                  .run = mandelbrot_fma_contracted});

}  // namespace

PLUGBENCH_PLUGIN(plugbench::sdk::HostServices, {.name = "fake_subtle",
                                                .version = "0.0.1",
                                                .description = "subtly wrong kernels",
                                                .memory_space = PB_MEMORY_HOST});
