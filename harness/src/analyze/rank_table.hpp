// rank_table.hpp: one problem of an MPI run as people read it: per cell the spread over the ranks
// (median of the ranks' medians, fastest, slowest, imbalance), the bandwidth of all ranks at once,
// and the slow ranks named.
#pragma once

#include "analyze/rank_spread.hpp"
#include "render/text_table.hpp"
#include "results/run_context.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace plugbench {

// `hosts`: rank -> host name, to name a slow rank's host.
TextTable rank_spread_table(const std::string& workload, const std::string& distribution,
                            const Shape& shape, const std::vector<RankSpread>& spreads,
                            const std::map<int, std::string>& hosts);

// "rank 1 (node7) 23.5 % slower (over the 10 % --outlier-threshold, U test p 0.001)".
std::string slow_rank_text(const SlowRank& slow, const std::map<int, std::string>& hosts);

// The GPUs two or more ranks of a host ran on (each rank's first GPU), by host and UUID, from
// the ranks' facts as they gathered them.
std::vector<SharedGpu> shared_gpus(const std::vector<RankFacts>& ranks);

// The run's ranks in a line or two on `out`: hosts, CPU shares, the thread teams their host cells
// ran on (from `cells`, every rank's), devices (for ranks that used one), and ranks that share a
// GPU (allowed, but their figures are a shared GPU's).
void describe_rank_sharing(const std::vector<RankFacts>& ranks, bool lockstep,
                           const std::vector<CellResult>& cells, std::ostream& out);

// Lists every slow rank of the run on `out` (nothing when there is none); true when there is one.
bool report_slow_ranks(const std::vector<RankSpread>& spreads,
                       const std::map<int, std::string>& hosts, std::ostream& out);

// A rank's host and GPU (UUID, device index) from the ranks' facts, for a slow rank's entry.
nlohmann::json rank_identity(const std::vector<RankFacts>& ranks, int rank);

}  // namespace plugbench
