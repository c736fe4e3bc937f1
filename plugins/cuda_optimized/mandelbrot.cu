// mandelbrot.cu: int32 iterations[width * height], row-major, for the problem's region and
// iteration cap. The arithmetic is the contract's (workloads/mandelbrot.cpp) with its one FMA, as
// plugbench/cuda/mandelbrot.cuh writes it, operation for operation, with explicitly rounded
// intrinsics so that no contraction can change it:
//   c = (min + span * x / w)          mul, div, add (float)
//   |z|^2 = zr*zr + zi*zi <= 4        two muls, an add
//   zr' = (zr*zr - zi*zi) + cr        the same products, a sub, an add
//   zi' = fma(zr + zr, zi, ci)        the one FMA the contract allows
// so every pixel gets the naive kernel's iteration count. What changes is the control flow:
//  - "unrolled": 8 iterations per trip with no branch, the escape tests OR-ed into one predicate;
//    a trip that escaped is undone and replayed one iteration at a time (same operations, same
//    values), so the first failing test is found exactly. That removes the loop counter, compare
//    and branch from 7 of every 8 iterations.
//  - "unrolled_cycle_check": the same, plus exact cycle detection. Every 8 trips the orbit point is
//    saved; when a later trip ends on the bit-identical point, the orbit is periodic, every point
//    of the cycle already passed the test, and the iteration (a fixed function of z) will never
//    escape: the answer is the cap, exactly as iterating to the cap would give. Interior pixels,
//    which cost the cap and dominate the work, usually settle on such a cycle long before it.
#include "launch_config.cuh"

#include <plugbench/cuda/mandelbrot.cuh>

namespace plugbench::cuda::opt {
namespace {

constexpr int kMandelbrotBlockX = 32;  // a warp covers 32 consecutive pixels of a row
constexpr int kMandelbrotBlockY = 8;
constexpr unsigned kTripIterations = 8;
constexpr unsigned kTripsPerSave = 8;

struct MandelbrotParams {
  int width;
  int height;
  unsigned max_iterations;
  float re_min;
  float re_span;
  float im_min;
  float im_span;
};

// Thread layer: one pixel's orbit.
template <bool kCycleCheck>
__device__ __forceinline__ unsigned escape_iterations(float cr, float ci, unsigned max_iterations) {
  float zr = 0.0f;
  float zi = 0.0f;
  unsigned k = 0;
  unsigned saved_re = 0;  // bits of the saved orbit point; z0 = (+0, +0)
  unsigned saved_im = 0;
  unsigned trips = 0;
  while (max_iterations - k >= kTripIterations) {
    float r = zr;
    float i = zi;
    bool escaped = false;
#pragma unroll
    for (unsigned u = 0; u < kTripIterations; ++u) {
      const float r2 = __fmul_rn(r, r);
      const float i2 = __fmul_rn(i, i);
      escaped |= !(__fadd_rn(r2, i2) <= 4.0f);  // NaN (long after an escape) counts as escaped
      const float next_r = __fadd_rn(__fsub_rn(r2, i2), cr);
      i = __fmaf_rn(__fadd_rn(r, r), i, ci);
      r = next_r;
    }
    if (escaped) break;  // z and k still hold the trip's start; the exact loop below replays it
    zr = r;
    zi = i;
    k += kTripIterations;
    if constexpr (kCycleCheck) {
      const unsigned re_bits = __float_as_uint(zr);
      const unsigned im_bits = __float_as_uint(zi);
      if (re_bits == saved_re && im_bits == saved_im) return max_iterations;
      if (++trips % kTripsPerSave == 0) {
        saved_re = re_bits;
        saved_im = im_bits;
      }
    }
  }
  // The naive loop itself: finishes an escaped trip, or the last max % 8 iterations.
  while (k < max_iterations) {
    const float r2 = __fmul_rn(zr, zr);
    const float i2 = __fmul_rn(zi, zi);
    if (!(__fadd_rn(r2, i2) <= 4.0f)) break;
    const float next_r = __fadd_rn(__fsub_rn(r2, i2), cr);
    zi = __fmaf_rn(__fadd_rn(zr, zr), zi, ci);
    zr = next_r;
    ++k;
  }
  return k;
}

template <bool kCycleCheck>
__global__ void __launch_bounds__(kMandelbrotBlockX* kMandelbrotBlockY)
    mandelbrot_kernel(MandelbrotParams p, int* __restrict__ iterations) {
  const int x = blockIdx.x * kMandelbrotBlockX + threadIdx.x;
  const int y = blockIdx.y * kMandelbrotBlockY + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  const float cr = mandelbrot_coordinate(p.re_min, p.re_span, x, p.width);
  const float ci = mandelbrot_coordinate(p.im_min, p.im_span, y, p.height);
  iterations[static_cast<uint64_t>(y) * p.width + x] =
      static_cast<int>(escape_iterations<kCycleCheck>(cr, ci, p.max_iterations));
}

// Device entry.
template <bool kCycleCheck>
void mandelbrot(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const pb_problem& problem = call.problem();
  if (problem.width == 0 || problem.height == 0) return;
  if (problem.height > 65535ull * kMandelbrotBlockY) {
    throw sdk::unsupported("cuda_optimized mandelbrot: at most 524280 rows");
  }
  const MandelbrotView view = mandelbrot_view(problem);  // checks the int limits
  MandelbrotParams p{};
  p.width = view.width;
  p.height = view.height;
  p.max_iterations = static_cast<unsigned>(view.max_iterations);
  p.re_min = view.re_min;
  p.re_span = view.re_span;
  p.im_min = view.im_min;
  p.im_span = view.im_span;
  const dim3 block(kMandelbrotBlockX, kMandelbrotBlockY);
  const dim3 grid(static_cast<unsigned>(div_up(problem.width, kMandelbrotBlockX)),
                  static_cast<unsigned>(div_up(problem.height, kMandelbrotBlockY)));
  mandelbrot_kernel<kCycleCheck><<<grid, block, 0, services.stream()>>>(p, call.output<int>(0));
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "unrolled_cycle_check",
                  .description = "naive arithmetic bit for bit, 8 iterations per branch, exact "
                                 "orbit-cycle detection ends interior pixels early",
                  .run = plugbench::cuda::opt::mandelbrot<true>});
PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "unrolled",
                  .description = "naive arithmetic bit for bit, 8 iterations per branch with the "
                                 "escape tests OR-ed, exact replay of the escaping trip",
                  .run = plugbench::cuda::opt::mandelbrot<false>});
