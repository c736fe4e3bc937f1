// outside_the_reader.cpp: the functions the reader's sources name only where they write a run's
// results (its host, plugins and devices), linked here so that the fuzz target needs the reader's
// sources alone. Reaching one while reading would be a finding, so each aborts, naming itself.
#include "base/host_facts.hpp"
#include "load/plugin_loader.hpp"

#include <cstdio>
#include <cstdlib>

namespace plugbench {
namespace {

[[noreturn]] void reached(const char* function) {
  std::fprintf(stderr, "results_reader_fuzzer: %s was reached, which only a run's writer calls\n",
               function);
  std::abort();
}

}  // namespace

std::string host_name() {
  reached("host_name");
}
std::string utc_timestamp() {
  reached("utc_timestamp");
}
const char* to_string(PluginState) {
  reached("to_string(PluginState)");
}

}  // namespace plugbench
