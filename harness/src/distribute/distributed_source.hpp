// distributed_source.hpp: the cells of distributed workloads, measured in the rank's own process:
// MPI calls come between the plugin's kernel calls, on the plugin's buffers (device memory to a
// CUDA-aware MPI), which only the process that opened the session can reach; a worker process
// would need MPI of its own. A session is opened per plugin on first use and kept (a crash in a
// kernel ends the rank, as in --isolation none). Rank 0 also measures each cell's problem of one
// rank alone, for the scaling efficiency (docs/mpi.md).
#pragma once

#include "cells/cell_source.hpp"
#include "cells/isolation_settings.hpp"
#include "distribute/distributed_settings.hpp"
#include "ranks/rank_group.hpp"

#include <map>
#include <memory>
#include <string>

namespace plugbench {

class DistributedSource : public CellSource {
 public:
  // The isolation settings give the device and the longest one exchange waits for the other ranks.
  DistributedSource(RankGroup& ranks, const DistributedSettings& settings,
                    const IsolationSettings& isolation, FactsCallback on_facts);
  ~DistributedSource() override;
  DistributedSource(const DistributedSource&) = delete;
  DistributedSource& operator=(const DistributedSource&) = delete;
  std::optional<CellResult> run(const PluginRecord& plugin, const CellRequest& request) override;
  void problem_done() override;

 private:
  struct Problem;
  const Problem& problem_for(const CellRequest& request, int ranks);
  // Opens the plugin's session unless it is open or could not open; throws PluginCallError.
  void open_session(const PluginRecord& plugin);

  DistributedSettings settings_;
  IsolationSettings isolation_;
  FactsCallback on_facts_;
  std::unique_ptr<RankExchange> all_;
  std::unique_ptr<RankExchange> alone_;
  std::map<std::string, std::unique_ptr<PluginSession>> sessions_;
  std::map<std::string, std::string> unavailable_;    // plugin -> why its session did not open
  std::map<int, std::unique_ptr<Problem>> problems_;  // by rank count: the job's, and one rank's
};

}  // namespace plugbench
