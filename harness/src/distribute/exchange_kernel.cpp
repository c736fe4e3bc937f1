// exchange_kernel.cpp: the staging copy and the poison of the distributed workloads' passes.
#include "distribute/exchange_kernel.hpp"

#include <algorithm>
#include <vector>

namespace plugbench {

std::optional<HostStaging> pinned_copy(const PluginSession& session, const StagingChoice& staging,
                                       std::uint64_t bytes) {
  if (staging.mode != StagingMode::staged) return std::nullopt;
  return std::optional<HostStaging>(std::in_place, session, std::max<std::uint64_t>(bytes, 1),
                                    PB_HOST_PINNED);
}

void poison_buffer(const PluginBuffer& buffer) {
  std::vector<unsigned char> poison(buffer.bytes(), 0xA5);
  if (!poison.empty()) buffer.copy_in(poison.data(), poison.size());
}

}  // namespace plugbench
