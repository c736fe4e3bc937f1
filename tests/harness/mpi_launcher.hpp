// mpi_launcher.hpp: the shell prefix that starts the harness as K ranks, for the MPI tests (built
// only where CMake found MPI, which defines PLUGBENCH_MPIEXEC and its flags).
#pragma once

#include <string>

namespace plugbench::testing {

// "mpirun <flags> -np K " in front of the harness; `environment` as VAR=value words for every
// rank (through env, which the launcher starts on each rank).
inline std::string launcher(int ranks, const std::string& environment = "") {
  return std::string(PLUGBENCH_MPIEXEC) + " " + PLUGBENCH_MPIEXEC_FLAGS + " -np " +
         std::to_string(ranks) + " " + (environment.empty() ? "" : "env " + environment + " ");
}

}  // namespace plugbench::testing
