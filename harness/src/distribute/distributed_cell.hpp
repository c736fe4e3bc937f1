// distributed_cell.hpp: the measurement protocol of one distributed cell on this rank, in lock-step
// with the other ranks of `exchange`: a checked pass verified over every rank, warm-up passes,
// timed passes (each a sample of local compute, exchange and total), and a last checked pass.
// Never throws for a plugin's failure or a rank that does not answer: the cell records it. A stop
// signal (SIGINT, SIGTERM) on any rank ends the cell at its next sample on every rank.
#pragma once

#include "distribute/distributed_settings.hpp"
#include "load/plugin_session.hpp"
#include "measure/cell_result.hpp"
#include "measure/run_settings.hpp"
#include "ranks/rank_exchange.hpp"

#include "distributed_workload.hpp"

namespace plugbench {

struct DistributedCellSpec {
  const DistributedWorkload& workload;
  const ProblemData& whole;  // the problem of every rank together
  const Reference& reference;
  Shape requested;  // the size asked for: per rank (weak) or in total (strong)
  Scaling scaling;
  MpiStaging staging;
};

// Thrown on every rank of `exchange` together, at the meeting before a sample, when a stop signal
// reached any of them: the cell in flight is dropped, as a worker's is.
struct DistributedCellStopped {};

CellResult measure_distributed_cell(const DistributedCellSpec& spec, const PluginSession& session,
                                    const KernelRecord& kernel, const RunSettings& settings,
                                    RankExchange& exchange);

// The whole problem's size for `requested` on `ranks` ranks: n per rank (weak) or n (strong).
Shape whole_shape(const Shape& requested, Scaling scaling, int ranks);

}  // namespace plugbench
