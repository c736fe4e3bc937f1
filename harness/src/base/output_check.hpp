// output_check.hpp: whether what a command wrote to stdout got there. A full disk (>/dev/full), a
// closed stdout or a reader that went away fails the writes silently (SIGPIPE is ignored); a
// command that printed its answer must then exit 4, not 0.
#pragma once

#include <iostream>
#include <string>

namespace plugbench {

// Flushes `out` and, when anything written to it was lost, says so on stderr under `who`
// ("harness show") and returns false.
inline bool output_written(std::ostream& out, const std::string& who) {
  out.flush();
  if (out) return true;
  std::cerr << who
            << ": could not write to stdout (a full disk, a closed stdout, or a reader that went "
               "away); what it printed is incomplete\n";
  return false;
}

}  // namespace plugbench
