// plugin_screening.hpp: loading and probing a plugin library first in a child process with a time
// limit, so that a library whose static constructor or probe hangs or crashes is listed as broken
// instead of freezing or ending the harness (`--list` and every run discover plugins).
#pragma once

#include "load/plugin_loader.hpp"

#include <string>

namespace plugbench {

// PLUGBENCH_DISCOVERY_TIMEOUT (seconds, 0.1 to 86400), else this.
inline constexpr double kDefaultDiscoveryTimeoutS = 60;
double discovery_timeout_s();

// What loading and probing `path` did in a child process (its own process group, ended with
// everything it started): the record's state and reason, the name left as the file's. A library
// that hung past `timeout_s` or ended the child is broken, with the reason.
PluginRecord screen_plugin(const std::string& path, const std::string& found_in, double timeout_s);

// "killed by signal 11 (Segmentation fault)", "exited with code 134", from a waitpid status.
std::string describe_wait_status(int wait_status);

}  // namespace plugbench
