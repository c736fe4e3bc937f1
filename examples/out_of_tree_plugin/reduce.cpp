// reduce.cpp (example_cpu): the sum of n int32 values as int64, in two variants, so that the
// harness compares them in one table: a plain loop, and a loop unrolled by four with independent
// accumulators (more additions in flight).
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

// Inputs: int32 x[n]. Outputs: int64 sum[1] (see the table in plugbench/plugin_api.h).
void reduce_loop(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;  // written for every n, 0 included
}

void reduce_unrolled4(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const std::uint64_t n = call.n();
  std::int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::uint64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i];
    s1 += x[i + 1];
    s2 += x[i + 2];
    s3 += x[i + 3];
  }
  for (; i < n; ++i) s0 += x[i];  // the last n % 4 values: awkward sizes check this tail
  *call.output<std::int64_t>(0) = (s0 + s1) + (s2 + s3);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "loop",
                  .description = "one int64 accumulator",
                  .run = reduce_loop});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "unrolled4",
                  .description = "four independent int64 accumulators",
                  .run = reduce_unrolled4});
