// dot.cpp (cpu_serial): float dot product, float products summed in double; and the textbook float
// accumulator, kept (opt-in) to show how wrong it gets.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

void dot_double_accumulator(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const std::uint64_t n = call.n();
  double sum = 0.0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const float product = x[i] * y[i];
    sum += product;
  }
  *call.output<double>(0) = sum;
}

// Once the running sum is 2^24 times larger than a product, adding the product rounds it away.
void dot_float_accumulator(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const std::uint64_t n = call.n();
  float sum = 0.0f;
  for (std::uint64_t i = 0; i < n; ++i) sum += x[i] * y[i];
  *call.output<double>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "double_accumulator",
                  .description = "float products summed in one double",
                  .run = dot_double_accumulator});
PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "float_accumulator",
                  .description = "float running sum: loses the small products at large n",
                  .run = dot_float_accumulator,
                  .flags = PB_KERNEL_OPT_IN});
