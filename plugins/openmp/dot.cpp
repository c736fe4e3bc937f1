// dot.cpp (openmp): float dot product, float products summed in double by an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>

#include "thread_range.hpp"
#include "vector_isa.hpp"

namespace {

void dot_parallel_for(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const auto n = static_cast<std::int64_t>(call.n());
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) {
    const float product = x[i] * y[i];
    sum += product;
  }
  *call.output<double>(0) = sum;
}

// A thread's part with the double additions spread over vector lanes and partial sums (a
// reassociation the reference's tolerance admits): the single chain of dependent additions of
// parallel_for is bound by the adder's latency, not by memory. Compiled per vector ISA.
double dot_part(plugbench::openmp::VectorIsa isa, const float* x, const float* y,
                std::uint64_t count) {
  // Explicit lanes, not a simd reduction clause: the clause's private copies are sized where the
  // body is compiled first (the baseline), and the wider ISAs' copies then stay scalar.
  return plugbench::openmp::run_in_vector_isa(isa, [&]() PLUGBENCH_VECTOR_BODY {
    constexpr std::uint64_t kLanes = 32;
    double lanes[kLanes] = {};
    std::uint64_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
#pragma omp simd
      for (std::uint64_t k = 0; k < kLanes; ++k) {
        const float product = x[i + k] * y[i + k];
        lanes[k] += product;
      }
    }
    for (; i < count; ++i) {
      const float product = x[i] * y[i];
      lanes[0] += product;
    }
    double sum = 0.0;
    for (std::uint64_t k = 0; k < kLanes; ++k) sum += lanes[k];
    return sum;
  });
}

// As dot_part, over `Streams` equal pieces of the part read side by side (2 * Streams streams
// with y's): more streams in flight than the peak's two-buffer loop keeps.
template <int Streams>
double dot_part_streams(plugbench::openmp::VectorIsa isa, const float* x, const float* y,
                        std::uint64_t count) {
  return plugbench::openmp::run_in_vector_isa(isa, [&]() PLUGBENCH_VECTOR_BODY {
    constexpr std::uint64_t kLanes = 16;  // per stream: a cache line of floats a step
    const std::uint64_t per = count / Streams / kLanes * kLanes;
    double lanes[Streams][kLanes] = {};
    for (std::uint64_t i = 0; i < per; i += kLanes) {
#pragma GCC unroll 4
      for (int s = 0; s < Streams; ++s) {
        const std::uint64_t at = static_cast<std::uint64_t>(s) * per + i;
#pragma omp simd
        for (std::uint64_t k = 0; k < kLanes; ++k) {
          const float product = x[at + k] * y[at + k];
          lanes[s][k] += product;
        }
      }
    }
    double sum = 0.0;
    for (std::uint64_t i = per * Streams; i < count; ++i) {
      const float product = x[i] * y[i];
      sum += product;
    }
    for (int s = 0; s < Streams; ++s) {
      for (std::uint64_t k = 0; k < kLanes; ++k) sum += lanes[s][k];
    }
    return sum;
  });
}

// A part per thread, each summed by Part; parts in whole groups of Align elements (16 floats:
// whole cache lines, as the peak's loops share their buffers).
template <auto Part, std::uint64_t Align>
void dot_parts(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const std::uint64_t n = call.n();
  const auto isa = plugbench::openmp::chosen_vector_isa();
  double sum = 0.0;
#pragma omp parallel reduction(+ : sum)
  {
    const auto part = plugbench::openmp::thread_range_aligned(n, omp_get_thread_num(),
                                                              omp_get_num_threads(), Align);
    sum += Part(isa, x + part.begin, y + part.begin, part.size());
  }
  *call.output<double>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "parallel_for",
                  .description = "parallel for, float products in a double reduction",
                  .run = dot_parallel_for});

PLUGBENCH_KERNEL(
    {.workload = "dot",
     .variant = "simd",
     .description = "a part per thread, the double sum over vector lanes, widest vector ISA",
     .run = dot_parts<dot_part, 1>,
     .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "streams1",
                  .description = "simd with parts in whole cache lines",
                  .run = dot_parts<dot_part_streams<1>, 16>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "streams2",
                  .description = "simd over two halves of each part read side by side (4 streams)",
                  .run = dot_parts<dot_part_streams<2>, 16>});
