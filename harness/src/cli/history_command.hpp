// history_command.hpp: `harness history add|list|trend|machines|changes` on the results history
// (docs/history.md).
#pragma once

#include "history/history_add.hpp"

namespace plugbench {

// argv[0] is "history".
int run_history(int argc, const char* const* argv);

}  // namespace plugbench
