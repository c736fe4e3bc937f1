// distributed_settings.hpp: how a distributed workload (docs/mpi.md) is sized across the ranks and
// how its device buffers reach MPI, with the text each is written as.
#pragma once

#include "base/enum_names.hpp"
#include "measure/problem_scaling.hpp"

namespace plugbench {

// --mpi-staging: device buffers handed to MPI directly, staged through pinned host memory, or
// whichever the MPI library allows (auto).
enum class MpiStaging { automatic, host, direct };

inline constexpr EnumName<MpiStaging> kMpiStagingNames[] = {
    {MpiStaging::host, "host"}, {MpiStaging::direct, "direct"}, {MpiStaging::automatic, "auto"}};

inline const char* to_string(MpiStaging staging) {
  return name_in(kMpiStagingNames, staging);
}

struct DistributedSettings {
  Scaling scaling = Scaling::weak;             // --scaling (measure/problem_scaling.hpp)
  MpiStaging staging = MpiStaging::automatic;  // --mpi-staging
};

}  // namespace plugbench
