// distributed_table.cpp: a distributed problem's table.
#include "analyze/distributed_table.hpp"

#include "analyze/report_table.hpp"
#include "render/figure_text.hpp"

#include <algorithm>
#include <map>

namespace plugbench {
namespace {

struct JobFigures {
  const CellResult* first = nullptr;  // rank 0's cell (or the lowest rank's)
  int ranks_ok = 0;
  int ranks = 0;
  double total_ms = 0, local_ms = 0, exchange_ms = 0;  // the slowest rank's medians
  double bytes_sent = 0;                               // all ranks together, per sample
  const CellResult* failed = nullptr;                  // the first cell that is not ok
};

std::string job_verification(const JobFigures& job) {
  const CellResult& cell = job.failed ? *job.failed : *job.first;
  if (!cell.verification) return to_string(cell.status);
  const Verification& v = *cell.verification;
  if (!v.passed) return "NO: " + v.detail;
  return "yes (exact)";
}

}  // namespace

TextTable distributed_table(const std::string& workload, const std::string& distribution,
                            const Shape& shape, const std::vector<CellResult>& cells) {
  std::map<std::string, JobFigures> jobs;
  std::vector<std::string> order;
  for (const CellResult& cell : cells) {
    const std::string key = cell.plugin + "/" + cell.variant;
    if (!jobs.count(key)) order.push_back(key);
    JobFigures& job = jobs[key];
    if (job.first == nullptr || cell.rank < job.first->rank) job.first = &cell;
    ++job.ranks;
    if (cell.status == CellStatus::ok) ++job.ranks_ok;
    if (cell.status != CellStatus::ok && job.failed == nullptr) job.failed = &cell;
    if (cell.kernel) job.total_ms = std::max(job.total_ms, cell.kernel->median_ms);
    if (cell.distributed) {
      job.local_ms = std::max(job.local_ms, cell.distributed->local.median_ms);
      job.exchange_ms = std::max(job.exchange_ms, cell.distributed->exchange.median_ms);
      job.bytes_sent += static_cast<double>(cell.distributed->bytes_sent);
    }
  }
  const CellResult* any = cells.empty() ? nullptr : &cells.front();
  const DistributedRecord* about = any && any->distributed ? &*any->distributed : nullptr;
  const int ranks = about ? about->ranks : 1;
  TextTable table;
  table.title = workload + "  n = " + shape_text(shape);
  if (about) {
    table.title +=
        about->scaling == Scaling::weak ? " per rank (weak scaling)" : " in total (strong scaling)";
  }
  table.title += "  distribution " + distribution + "  over " + std::to_string(ranks) +
                 (ranks == 1 ? " rank" : " ranks");
  table.context = {{"workload", workload},
                   {"n", std::to_string(shape.n)},
                   {"distribution", distribution},
                   {"scaling", about && about->scaling ? to_string(*about->scaling) : ""},
                   {"ranks", std::to_string(ranks)}};
  table.columns = {{"plugin", "plugin", true},
                   {"variant", "variant", true},
                   {"ranks ok", "ranks_ok"},
                   {"total ms", "total_ms"},
                   {"local ms", "local_ms"},
                   {"exchange ms", "exchange_ms"},
                   {"sent KiB/rank", "sent_kib_per_rank"},
                   {"exch GB/s", "exchange_gbps"},
                   {"staging", "staging", true},
                   {"1-rank ms", "one_rank_ms"},
                   {"efficiency", "efficiency"},
                   {"balance", "keys_max_over_mean"},
                   {"verified", "verified", true}};
  bool any_balance = false;
  for (const std::string& key : order) {
    const JobFigures& job = jobs[key];
    const CellResult& cell = *job.first;
    TableRow row;
    row.cells = {cell.plugin, cell.variant};
    if (!cell.kernel || !cell.distributed) {
      const CellResult& why = job.failed ? *job.failed : cell;
      row.note = to_string(why.status) + ": " + why.message;
      row.alert = why.counts_as_error();
      table.rows.push_back(row);
      continue;
    }
    const DistributedRecord& record = *cell.distributed;
    std::optional<double> gbps;
    if (job.bytes_sent > 0 && job.exchange_ms > 0) gbps = job.bytes_sent / (job.exchange_ms * 1e6);
    std::optional<double> balance;
    if (!record.keys_per_rank.empty()) {
      double sum = 0, most = 0;
      for (std::uint64_t keys : record.keys_per_rank) {
        sum += static_cast<double>(keys);
        most = std::max(most, static_cast<double>(keys));
      }
      if (sum > 0) balance = most / (sum / static_cast<double>(record.keys_per_rank.size()));
      any_balance = true;
    }
    row.cells.insert(
        row.cells.end(),
        {std::to_string(job.ranks_ok) + "/" + std::to_string(job.ranks), format_ms(job.total_ms),
         format_ms(job.local_ms), format_ms(job.exchange_ms),
         format_number(job.bytes_sent / std::max(job.ranks, 1) / 1024.0, 1), format_rate(gbps),
         record.staging, format_ms(record.one_rank_ms), format_number(record.efficiency, 2),
         format_number(balance, 3), job_verification(job)});
    row.alert = job.failed != nullptr;
    table.rows.push_back(row);
  }
  table.notes.push_back(
      "total, local, exchange: the slowest rank's medians; exch GB/s: every rank's bytes over the "
      "slowest exchange; efficiency: 1-rank time t1 over the job's tK" +
      std::string(ranks > 1 && about && about->scaling == Scaling::strong ? " times the ranks"
                                                                          : "") +
      (any_balance ? "; balance: most keys on a rank over the mean" : ""));
  return table;
}

}  // namespace plugbench
