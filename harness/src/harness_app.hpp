// harness_app.hpp: the harness program: options in, tables and a results file out, an exit code.
#pragma once

namespace plugbench {

// Exit codes, documented in --help and the README.
enum ExitCode {
  kExitOk = 0,
  kExitVerificationFailed = 1,
  kExitUsage = 2,
  kExitCellError = 3,
  kExitOutputError = 4,
  kExitInterrupted = 5  // SIGINT / SIGTERM: the results so far are written, marked incomplete
};

int run_harness(int argc, const char* const* argv);

}  // namespace plugbench
