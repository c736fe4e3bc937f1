// buffer_contract.hpp: what the harness checks after a checked call besides the answer: that the
// kernel kept to its buffers. Each input still holds what it was given (read back through the
// plugin's copy_out, so device memory too, and compared byte for byte with the problem's), and the
// guard bytes the harness allocates right after each output still hold their pattern.
#pragma once

#include "load/plugin_session.hpp"
#include "workload.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace plugbench {

// Guard bytes after each output buffer: an overrun is measured up to this far (a tile or a block
// past the end); a longer one is reported as at least this long.
inline constexpr std::uint64_t kOutputGuardBytes = std::uint64_t{64} << 10;

// One way a kernel broke the buffer contract, as its cell's verification records it.
struct ContractBreach {
  std::string message;        // e.g. "input 0 (keys) modified: ..."
  std::string error_measure;  // what `error` counts, e.g. "bytes written past output 0 (sum)"
  double error = 0;
};

// Writes the guard pattern into the kOutputGuardBytes that follow an output of `bytes` (allocated
// with them). After the output's own bytes were first written: the team that first touches a huge
// page of the output is the one that computes it, not the one that writes the guard.
void fill_output_guard(const PluginSession& session, void* output, std::uint64_t bytes);

// The breaches of the contract the buffers show now (session synchronized): every input against the
// problem's, every output's guard against its pattern. Empty when the kernel kept to its buffers.
std::vector<ContractBreach> find_contract_breaches(const PluginSession& session,
                                                   const ProblemData& problem,
                                                   std::span<const void* const> inputs,
                                                   std::span<void* const> outputs);

}  // namespace plugbench
