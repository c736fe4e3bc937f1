// plugin_names.hpp: the naming rule for plugins, workloads and variants (docs/writing-a-plugin.md):
// names reach command lines (--variants a,b,-c), tables, file names and JSON keys, so they are
// short, printable and free of the selection syntax's own characters.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace plugbench {

// The longest plugin, workload or variant name the harness accepts.
inline constexpr std::size_t kMaxNameBytes = 64;

// A plugin name: 1 to kMaxNameBytes of [a-z0-9_].
bool valid_plugin_name(std::string_view name);

// Why a workload or variant name breaks the rule, or "" when it keeps it: 1 to kMaxNameBytes of
// [A-Za-z0-9_.+-], not starting with '-' (--variants reads that as "leave out"), and not "all"
// (which --variants reads as every variant).
std::string kernel_name_problem(std::string_view name);

}  // namespace plugbench
