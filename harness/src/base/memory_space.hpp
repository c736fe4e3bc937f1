// memory_space.hpp: where a plugin's problem buffers live, with the one table of its names that the
// results file, its reader, check-plugin and the tables use.
#pragma once

#include "base/enum_names.hpp"

#include <optional>

namespace plugbench {

// host: the CPU's memory; device: a GPU's (PB_MEMORY_HOST and PB_MEMORY_DEVICE of the plugin ABI).
enum class MemorySpace { host, device };

inline constexpr EnumName<MemorySpace> kMemorySpaceNames[] = {{MemorySpace::host, "host"},
                                                              {MemorySpace::device, "device"}};

inline const char* to_string(MemorySpace space) {
  return name_in(kMemorySpaceNames, space);
}

// A file's memory space is read leniently: a text the table lacks reads as none, written as "".
inline const char* to_string(std::optional<MemorySpace> space) {
  return space ? to_string(*space) : "";
}

}  // namespace plugbench
