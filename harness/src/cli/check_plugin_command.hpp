// check_plugin_command.hpp: harness --check-plugin PATH.so, the first thing a plugin author runs:
// loads one plugin, prints what it declares, runs each of its kernels on small and awkward sizes
// against the references, and says plainly what is wrong, if anything.
#pragma once

#include "cli/options.hpp"

#include <ostream>

namespace plugbench {

// Checks options.check_plugin. --workload and --variants narrow the kernels checked (opt-in
// kernels only when named), --device picks the GPU. The report goes to `out`; a file that is not a
// loadable plugin, or a filter that selects nothing, is said on `err`.
// Returns 0 when every kernel checked passed (or the plugin is unavailable on this machine and
// none could run), 1 when a kernel gave a wrong answer, 2 when the file cannot be loaded as a
// plugin (or a filter is wrong), 3 when a kernel or the plugin reported an error.
int check_plugin(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace plugbench
