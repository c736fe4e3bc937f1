// kernel_flags.hpp: a kernel's PB_KERNEL_* flags by name, in one table: the results file, the
// check-plugin listing and the results table each take their spelling of a flag from it.
#pragma once

#include <plugbench/plugin_api.h>

#include <cstdint>

namespace plugbench {

// One flag and its spellings, which differ by where they are read: a results file's "flags"
// (results/schema.json), harness --check-plugin's "flags:" line, and the note after a cell's
// verification in the results table (null: the table does not mention the flag).
struct KernelFlagName {
  std::uint32_t bit;
  const char* json;
  const char* listing;
  const char* table_note;
};

inline constexpr KernelFlagName kKernelFlagNames[] = {
    {PB_KERNEL_SYNCHRONIZES_HOST, "synchronizes_host", "synchronizes-host", "syncs host"},
    {PB_KERNEL_ALLOCATES, "allocates", "allocates", "allocates"},
    {PB_KERNEL_OPT_IN, "opt_in", "opt-in", nullptr}};

// Every bit the table names; a plugin may set others, which no name describes.
inline constexpr std::uint32_t kKnownKernelFlags = [] {
  std::uint32_t known = 0;
  for (const KernelFlagName& flag : kKernelFlagNames) known |= flag.bit;
  return known;
}();

}  // namespace plugbench
