// exchange_steps.hpp: one pass of a distributed workload on this rank: the plugin's kernels on the
// rank's part (their own timer) and the harness's MPI exchange around them (a steady clock), over
// buffers in the plugin's memory. Where MPI reads and writes them is the staging: the plugin's
// buffers themselves (device memory to a CUDA-aware MPI, or host memory), or pinned host copies.
#pragma once

#include "base/enum_names.hpp"
#include "distribute/distributed_settings.hpp"
#include "load/plugin_session.hpp"
#include "measure/run_settings.hpp"
#include "ranks/rank_exchange.hpp"

#include "distributed_workload.hpp"

#include <memory>
#include <string>
#include <vector>

namespace plugbench {

// Where MPI reads and writes a pass's buffers: direct, the plugin's device buffers; staged, pinned
// host copies of them; host, the plugin's buffers, which are host memory.
enum class StagingMode { direct, staged, host };

// The names the results file and the tables write (DistributedRecord.staging, a string: measure/
// sits below distribute/).
inline constexpr EnumName<StagingMode> kStagingModeNames[] = {
    {StagingMode::direct, "direct"}, {StagingMode::staged, "staged"}, {StagingMode::host, "host"}};

inline const char* to_string(StagingMode mode) {
  return name_in(kStagingModeNames, mode);
}

struct StagingChoice {
  StagingMode mode = StagingMode::host;
  std::string reason;
};

// Throws std::invalid_argument when --mpi-staging direct asks for device buffers that the MPI
// library does not take.
StagingChoice choose_staging(const PluginRecord& plugin, MpiStaging asked,
                             const DeviceBufferSupport& support);

struct PassTimes {
  double local_ms = 0;     // the plugin's kernels
  double exchange_ms = 0;  // MPI and the staging copies
};

class ExchangeSteps {
 public:
  virtual ~ExchangeSteps() = default;
  // One pass. A rank whose kernel failed says so at the next meeting, so that every rank stops
  // there (a PluginCallError: its own, or one naming the rank that failed).
  virtual PassTimes run() = 0;
  // The answer this rank holds, read back to the host.
  virtual std::vector<HostArray> answer() const = 0;
  // Fills the answer's buffers with a poison, so that a pass that does not write them fails.
  virtual void poison() = 0;
  // Bytes this rank handed MPI for the other ranks in the last pass.
  virtual std::uint64_t bytes_sent() const = 0;
  // dist_sort: every rank's keys after the last pass.
  virtual std::vector<std::uint64_t> keys_per_rank() const { return {}; }
};

// Whether `workload` (a distributed workload's name) has its passes here.
bool has_exchange_steps(const std::string& workload);

// The passes of `workload` on `part`, this rank's slice. Throws std::logic_error for a distributed
// workload without passes (has_exchange_steps).
std::unique_ptr<ExchangeSteps> make_exchange_steps(
    const DistributedWorkload& workload, const ProblemData& part, const PluginSession& session,
    const KernelRecord& kernel, const StagingChoice& staging, RankExchange& exchange);

// Every rank learns whether each rank's step succeeded: rethrows this rank's `failure`, or throws
// a PluginCallError naming the first rank that failed.
void agree_on_step(RankExchange& exchange, const std::exception_ptr& failure, const char* step);

}  // namespace plugbench
