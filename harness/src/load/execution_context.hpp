// execution_context.hpp: who ran a host plugin's kernels: the thread team and its binding, as the
// plugin reports it (pb_execution_context), recorded in every cell.
#pragma once

#include <cstdint>
#include <string>

namespace plugbench {

struct ExecutionContext {
  std::uint32_t threads = 0;
  std::string binding;  // e.g. "spread", "serial"
  std::string places;   // e.g. "cores: 16 places"
};

}  // namespace plugbench
