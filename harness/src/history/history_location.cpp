// history_location.cpp: the default history path from the environment.
#include "history/history_location.hpp"

#include "base/usage_error.hpp"

#include <cstdlib>

namespace plugbench {

std::string default_history_path() {
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const char* data_home = std::getenv("XDG_DATA_HOME");
  if (data_home && data_home[0] == '/') return std::string(data_home) + "/plugbench/history.sqlite";
  const char* home = std::getenv("HOME");
  if (home && home[0] != '\0') return std::string(home) + "/.local/share/plugbench/history.sqlite";
  throw UsageError("no history path: neither XDG_DATA_HOME nor HOME is set; give --history DB");
}

}  // namespace plugbench
