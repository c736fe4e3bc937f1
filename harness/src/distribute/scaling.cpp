// scaling.cpp: the efficiency of distributed cells against one rank.
#include "distribute/scaling.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace plugbench {

void apply_scaling(std::vector<CellResult>& cells) {
  struct Job {
    std::optional<double> slowest_ms;
    std::optional<double> one_rank_ms;
    bool all_ok = true;
  };
  std::map<std::string, Job> jobs;
  const auto key = [](const CellResult& cell) { return cell.plugin + "/" + cell.variant; };
  for (const CellResult& cell : cells) {
    if (!cell.distributed) continue;
    Job& job = jobs[key(cell)];
    job.all_ok = job.all_ok && cell.status == CellStatus::ok && cell.kernel.has_value();
    if (cell.kernel) job.slowest_ms = std::max(job.slowest_ms.value_or(0), cell.kernel->median_ms);
    if (cell.rank <= 0 && cell.distributed->one_rank_ms) {
      job.one_rank_ms = cell.distributed->one_rank_ms;
    }
  }
  for (CellResult& cell : cells) {
    if (!cell.distributed) continue;
    const Job& job = jobs[key(cell)];
    DistributedRecord& record = *cell.distributed;
    record.one_rank_ms = job.one_rank_ms;
    if (!job.all_ok || !job.slowest_ms || !job.one_rank_ms || *job.slowest_ms <= 0) continue;
    const double ranks = record.scaling == Scaling::strong ? record.ranks : 1;
    record.efficiency = *job.one_rank_ms / (ranks * *job.slowest_ms);
  }
}

}  // namespace plugbench
