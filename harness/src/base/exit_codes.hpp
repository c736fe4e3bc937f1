// exit_codes.hpp: the harness's exit codes, documented in --help and the README.
#pragma once

namespace plugbench {

enum ExitCode {
  kExitOk = 0,
  kExitVerificationFailed = 1,
  kExitUsage = 2,
  kExitCellError = 3,
  kExitOutputError = 4,
  kExitInterrupted = 5,  // SIGINT / SIGTERM: the results so far are written, marked incomplete
  kExitSlowRank = 6      // every cell ok, but an MPI rank was named slow, with --fail-on-slow-rank
};

}  // namespace plugbench
