// rank_settings.hpp: how the MPI ranks of a run meet, where their CPUs come from, and how a slow
// rank is judged and reported (docs/mpi.md), with the text each mode is written as.
#pragma once

#include "base/enum_names.hpp"

namespace plugbench {

// --mpi-sync lockstep: every rank starts each cell together (shared memory, PCIe and network
// measured under the whole job's load); none: each rank runs its cells alone.
enum class MpiSync { lockstep, none };
// --rank-cpus share: the ranks on a host split its CPUs; launcher: keep the launcher's binding.
enum class RankCpus { share, launcher };

inline constexpr EnumName<MpiSync> kMpiSyncNames[] = {{MpiSync::lockstep, "lockstep"},
                                                      {MpiSync::none, "none"}};
inline constexpr EnumName<RankCpus> kRankCpusNames[] = {{RankCpus::share, "share"},
                                                        {RankCpus::launcher, "launcher"}};

inline const char* to_string(MpiSync sync) {
  return name_in(kMpiSyncNames, sync);
}
inline const char* to_string(RankCpus cpus) {
  return name_in(kRankCpusNames, cpus);
}

struct RankSettings {
  MpiSync sync = MpiSync::lockstep;  // --mpi-sync
  RankCpus cpus = RankCpus::share;   // --rank-cpus
  bool per_rank = false;             // --per-rank: every rank's table too
  double outlier_threshold = 0.10;   // --outlier-threshold: this much slower than the median
  bool fail_on_slow_rank = false;    // --fail-on-slow-rank: a slow rank makes the exit code 6
  bool lockstep() const { return sync == MpiSync::lockstep; }
};

}  // namespace plugbench
