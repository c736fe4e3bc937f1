// distributed_settings.hpp: how a distributed workload (docs/mpi.md) is sized across the ranks and
// how its device buffers reach MPI, with the text each is written as.
#pragma once

#include "base/enum_names.hpp"

namespace plugbench {

// --scaling weak (n per rank) or strong (n in total, split across the ranks).
enum class Scaling { weak, strong };
// --mpi-staging: device buffers handed to MPI directly, staged through pinned host memory, or
// whichever the MPI library allows (auto).
enum class MpiStaging { automatic, host, direct };

inline constexpr EnumName<Scaling> kScalingNames[] = {{Scaling::weak, "weak"},
                                                      {Scaling::strong, "strong"}};
inline constexpr EnumName<MpiStaging> kMpiStagingNames[] = {
    {MpiStaging::host, "host"}, {MpiStaging::direct, "direct"}, {MpiStaging::automatic, "auto"}};

inline const char* to_string(Scaling scaling) {
  return name_in(kScalingNames, scaling);
}
inline const char* to_string(MpiStaging staging) {
  return name_in(kMpiStagingNames, staging);
}

struct DistributedSettings {
  Scaling scaling = Scaling::weak;             // --scaling
  MpiStaging staging = MpiStaging::automatic;  // --mpi-staging
};

}  // namespace plugbench
