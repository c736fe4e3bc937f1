// show_command.hpp: `harness show FILE...`: a stored results file printed the way its run printed
// it (a table per problem, the summary line, the crossover), as console, markdown or CSV, under a
// header saying which machine, build and command produced it.
#pragma once

namespace plugbench {

// Exit codes of harness show: 0 shown, 2 a usage error or a file that is not readable results.
enum ShowExitCode { kShowDone = 0, kShowInputError = 2, kShowOutputError = 4 };

// argv[0] is "show".
int run_show(int argc, const char* const* argv);

}  // namespace plugbench
