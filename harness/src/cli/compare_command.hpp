// compare_command.hpp: `harness compare BASE.json NEW.json [more.json ...]`: how the machines
// differ, and each cell's times, ratio, GB/s, % of peak and verdict; every file after the first is
// compared to the first.
#pragma once

namespace plugbench {

// Exit codes of harness compare, documented in its --help and docs/comparing-results.md.
enum CompareExitCode {
  kCompareNoRegression = 0,
  kCompareRegression = 1,  // a cell slower beyond --threshold (significantly), or newly wrong
  kCompareInputError = 2,  // usage error, or a file that cannot be read as results
  // No regression, but nothing to vouch for it: no cell was compared (different workloads, an
  // empty new file) or a newer file is incomplete (its run was interrupted), unless
  // --allow-empty / --allow-incomplete say that is expected.
  kCompareInconclusive = 3,
  kCompareOutputError = 4  // stdout could not be written: the tables are incomplete
};

// argv[0] is "compare".
int run_compare(int argc, const char* const* argv);

}  // namespace plugbench
