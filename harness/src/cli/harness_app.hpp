// harness_app.hpp: the harness program: options in, tables and a results file out, an exit code.
#pragma once

namespace plugbench {

// Returns an exit code of exit_codes.hpp.
int run_harness(int argc, const char* const* argv);

}  // namespace plugbench
