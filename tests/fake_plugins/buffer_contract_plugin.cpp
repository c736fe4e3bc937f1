// buffer_contract_plugin.cpp: kernels that compute the right answer but break the buffer contract
// (tests/harness/test_buffer_contract.cpp): one writes its input, others write past their output.
// Each workload also has an honest kernel, to show that it is still verified. Built twice: on host
// memory, and (CONTRACT_DEVICE) on host memory posing as a device's, so that the harness reads the
// buffers back as it does a GPU's.
#include <plugbench/host_services.hpp>
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

#ifndef CONTRACT_NAME
#error "CONTRACT_NAME must name the plugin"
#endif

namespace {

using plugbench::sdk::Call;

std::int64_t sum_of(Call& call) {
  const std::int32_t* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
  return sum;
}

// Writes `bytes` zero bytes from `end` on: the harness's guard never holds a zero byte.
void write_past(void* end, std::size_t bytes) {
  std::memset(end, 0, bytes);
}

void reduce_honest(Call& call) {
  *call.output<std::int64_t>(0) = sum_of(call);
}

template <std::size_t past>
void reduce_overrunning(Call& call) {
  reduce_honest(call);
  write_past(call.output<std::int64_t>(0) + 1, past);
}

// Right on its first call (the checked one), then 1 byte past its output on every later call: only
// the check after the timed calls can see it.
void reduce_overrunning_later(Call& call) {
  static long calls = 0;
  if (++calls == 1) {
    reduce_honest(call);
  } else {
    reduce_overrunning<1>(call);
  }
}

void sort_honest(Call& call) {
  const std::uint32_t* keys = call.input<std::uint32_t>(0);
  std::uint32_t* sorted = call.output<std::uint32_t>(0);
  std::copy(keys, keys + call.n(), sorted);
  std::sort(sorted, sorted + call.n());
}

// Sorts the keys where they lie, then copies them out: right, and fast, but the input is gone.
void sort_in_place(Call& call) {
  auto* keys = const_cast<std::uint32_t*>(call.input<std::uint32_t>(0));
  std::sort(keys, keys + call.n());
  std::copy(keys, keys + call.n(), call.output<std::uint32_t>(0));
}

void sort_overrunning(Call& call) {
  sort_honest(call);
  write_past(call.output<std::uint32_t>(0) + call.n(), 1);
}

// The right dot product, then the first byte of its second input (y) inverted.
void dot_flipping_y(Call& call) {
  const float* x = call.input<float>(0);
  const float* y = call.input<float>(1);
  double dot = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) dot += double(x[i]) * double(y[i]);
  *call.output<double>(0) = dot;
  if (call.n() > 0) *const_cast<unsigned char*>(reinterpret_cast<const unsigned char*>(y)) ^= 0xFF;
}

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "overruns_1_byte",
                  .description = "writes 1 byte past its output",
                  .run = reduce_overrunning<1>});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "overruns_4096_bytes",
                  .description = "writes 4096 bytes past its output",
                  .run = reduce_overrunning<4096>});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "overruns_after_first_call",
                  .description = "writes 1 byte past its output after the checked call",
                  .run = reduce_overrunning_later});
PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "honest", .description = "correct", .run = reduce_honest});
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "sorts_input_in_place",
                  .description = "sorts its input, then copies it out",
                  .run = sort_in_place});
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "overruns_1_byte",
                  .description = "writes 1 byte past its output",
                  .run = sort_overrunning});
PLUGBENCH_KERNEL(
    {.workload = "sort", .variant = "honest", .description = "correct", .run = sort_honest});
PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "flips_a_byte_of_y",
                  .description = "changes one byte of its second input",
                  .run = dot_flipping_y});

#ifdef CONTRACT_DEVICE
// A small "device" (64 MiB buffers at most) keeps the harness's bandwidth calibration short.
class Services : public plugbench::sdk::HostServices {
 public:
  using plugbench::sdk::HostServices::BasicHostServices;
  void* alloc(std::uint64_t bytes) {
    if (bytes > (std::uint64_t{64} << 20)) {
      throw plugbench::sdk::out_of_memory("fake device: 64 MiB buffers at most");
    }
    return plugbench::sdk::HostServices::alloc(bytes);
  }
};
constexpr pb_memory_space kMemorySpace = PB_MEMORY_DEVICE;
#else
using Services = plugbench::sdk::HostServices;
constexpr pb_memory_space kMemorySpace = PB_MEMORY_HOST;
#endif

}  // namespace

PLUGBENCH_PLUGIN(Services, {.name = CONTRACT_NAME,
                            .version = "0.0.1",
                            .description = "breaks the buffer contract",
                            .memory_space = kMemorySpace});
