// options.hpp: the command line (Boost.Program_options), parsed into one plain struct.
#pragma once

#include "base/usage_error.hpp"
#include "run/run_request.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// The command line: a run's request, and what only the command line decides (help, listing,
// a dry run, plugin folders, --check-plugin, how ranks are placed).
struct Options : RunRequest {
  bool help = false;
  bool version = false;
  bool list = false;
  bool dry_run = false;
  std::vector<std::string> plugin_dirs;
  // --check-plugin PATH: check that one plugin file, and run nothing else.
  std::string check_plugin;
  bool device_given = false;  // --device named: every rank uses it (else one GPU per local rank)
};

// Parses argv; throws UsageError. The help text comes from usage_text().
Options parse_options(int argc, const char* const* argv);
std::string usage_text();

}  // namespace plugbench
