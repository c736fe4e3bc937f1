// history_location.hpp: where the history database is when --history does not say:
// $XDG_DATA_HOME/plugbench/history.sqlite, else ~/.local/share/plugbench/history.sqlite (the XDG
// Base Directory default).
#pragma once

#include <string>

namespace plugbench {

// Throws UsageError when neither XDG_DATA_HOME nor HOME is set (then --history must be given).
std::string default_history_path();

// What makes `path` no place for a run's history (checked before the run's first cell, as --json
// is, not found after every cell has run): a folder, device or FIFO, a folder above it that is a
// file, or an existing file that is not SQLite (a results file named by mistake; an empty file
// is a new database) or cannot be read. "" where a
// history can be made or added to there; whether a database is a plugbench history is left to
// the add, which says so in full.
std::string history_target_problem(const std::string& path);

}  // namespace plugbench
