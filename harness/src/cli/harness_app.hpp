// harness_app.hpp: the harness program: options in, tables and a results file out, an exit code.
#pragma once

#include "ranks/rank_group.hpp"

namespace plugbench {

// Runs as this rank of `ranks` (a group of one without an MPI launcher). Returns an exit code of
// exit_codes.hpp.
int run_harness(int argc, const char* const* argv, RankGroup& ranks);

}  // namespace plugbench
