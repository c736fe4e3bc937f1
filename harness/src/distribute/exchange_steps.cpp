// exchange_steps.cpp: the staging choice, the agreement after each step, and each distributed
// workload's passes found by the workload's name.
#include "distribute/exchange_steps.hpp"

#include "distribute/dist_reduce_steps.hpp"
#include "distribute/dist_sort_steps.hpp"

#include <map>
#include <stdexcept>

namespace plugbench {
namespace {

using MakeSteps = std::unique_ptr<ExchangeSteps> (*)(const ProblemData&, const PluginSession&,
                                                     const KernelRecord&, const StagingChoice&,
                                                     RankExchange&);

// Each distributed workload's passes, by its name: workloads/<name>.cpp holds its problem and its
// answer, distribute/<name>_steps.cpp its passes. A table, not self-registration: the harness's
// library is static, and a linker drops an object file that only registers itself.
const std::map<std::string, MakeSteps>& steps_by_workload() {
  static const std::map<std::string, MakeSteps> steps = {{"dist_reduce", make_dist_reduce_steps},
                                                         {"dist_sort", make_dist_sort_steps}};
  return steps;
}

}  // namespace

StagingChoice choose_staging(const PluginRecord& plugin, MpiStaging asked,
                             const DeviceBufferSupport& support) {
  if (plugin.memory_space != MemorySpace::device) {
    return {StagingMode::host,
            "the plugin's buffers are host memory: MPI reads and writes them in place"};
  }
  if (asked == MpiStaging::host) return {StagingMode::staged, "--mpi-staging host"};
  if (asked == MpiStaging::direct) {
    if (!support.usable) {
      throw std::invalid_argument(
          "--mpi-staging direct, but the MPI library does not take device "
          "buffers (" +
          support.how + "); use --mpi-staging host or auto, or a CUDA-aware MPI");
    }
    return {StagingMode::direct, "--mpi-staging direct; " + support.how};
  }
  if (support.usable) return {StagingMode::direct, support.how};
  return {StagingMode::staged, support.how};
}

bool has_exchange_steps(const std::string& workload) {
  return steps_by_workload().count(workload) == 1;
}

std::unique_ptr<ExchangeSteps> make_exchange_steps(
    const DistributedWorkload& workload, const ProblemData& part, const PluginSession& session,
    const KernelRecord& kernel, const StagingChoice& staging, RankExchange& exchange) {
  const auto found = steps_by_workload().find(workload.name());
  if (found == steps_by_workload().end()) {
    throw std::logic_error("no passes for the distributed workload " + workload.name() +
                           " (distribute/exchange_steps.cpp lists them)");
  }
  return found->second(part, session, kernel, staging, exchange);
}

void agree_on_step(RankExchange& exchange, const std::exception_ptr& failure, const char* step) {
  const std::vector<std::int64_t> failed = exchange.allgather({failure ? 1 : 0});
  if (failure) std::rethrow_exception(failure);
  for (std::size_t r = 0; r < failed.size(); ++r) {
    if (failed[r] != 0) {
      throw PluginCallError(PB_ERROR, "rank " + std::to_string(r) + "'s " + step +
                                          " failed (its own cell says why); every rank stopped "
                                          "this cell");
    }
  }
}

}  // namespace plugbench
