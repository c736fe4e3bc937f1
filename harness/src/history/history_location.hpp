// history_location.hpp: where the history database is when --history does not say:
// $XDG_DATA_HOME/plugbench/history.sqlite, else ~/.local/share/plugbench/history.sqlite (the XDG
// Base Directory default).
#pragma once

#include <string>

namespace plugbench {

// Throws UsageError when neither XDG_DATA_HOME nor HOME is set (then --history must be given).
std::string default_history_path();

}  // namespace plugbench
