// scan.cpp (example_cpu): exclusive prefix sums of int32 (modulo 2^32) in blocks, the shape a
// parallel scan takes: sum each block, scan the block sums, then scan each block from its offset.
// The block sums live in the workspace the harness allocates before the timed region.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

constexpr std::uint64_t kBlock = 4096;

std::uint64_t block_count(std::uint64_t n) {
  return (n + kBlock - 1) / kBlock;
}

// Scratch bytes for a problem: one uint32 sum per block. Asked for once per problem, outside the
// timed region; the kernel itself allocates nothing.
std::uint64_t scan_workspace(void* /*session*/, const pb_problem& problem) {
  return block_count(problem.n) * sizeof(std::uint32_t);
}

// Inputs: int32 x[n]. Outputs: int32 prefix[n], prefix[i] = x[0] + ... + x[i-1] modulo 2^32.
void scan_blocked(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* prefix = call.output<std::int32_t>(0);
  auto* block_sums = call.workspace<std::uint32_t>();
  const std::uint64_t n = call.n();
  const std::uint64_t blocks = block_count(n);
  // Unsigned arithmetic: the sums wrap modulo 2^32 instead of overflowing.
  for (std::uint64_t b = 0; b < blocks; ++b) {
    std::uint32_t sum = 0;
    for (std::uint64_t i = b * kBlock; i < n && i < (b + 1) * kBlock; ++i) {
      sum += static_cast<std::uint32_t>(x[i]);
    }
    block_sums[b] = sum;
  }
  std::uint32_t offset = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint32_t sum = block_sums[b];
    block_sums[b] = offset;
    offset += sum;
  }
  for (std::uint64_t b = 0; b < blocks; ++b) {
    std::uint32_t running = block_sums[b];
    for (std::uint64_t i = b * kBlock; i < n && i < (b + 1) * kBlock; ++i) {
      prefix[i] = static_cast<std::int32_t>(running);
      running += static_cast<std::uint32_t>(x[i]);
    }
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "blocked",
                  .description = "block sums, their scan, then each block from its offset",
                  .run = scan_blocked,
                  .workspace = scan_workspace});
