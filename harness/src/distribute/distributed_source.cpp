// distributed_source.cpp: distributed cells on sessions in the rank's process.
#include "distribute/distributed_source.hpp"

#include "base/host_facts.hpp"
#include "base/stdout_diversion.hpp"
#include "base/stop_signal.hpp"
#include "distribute/distributed_cell.hpp"
#include "results/results_json.hpp"

#include <new>

namespace plugbench {

namespace {
constexpr const char* kNoMemoryForProblem =
    "the harness ran out of host memory generating the problem and its reference";
}  // namespace

struct DistributedSource::Problem {
  std::string workload, distribution;
  Shape shape;
  ProblemData whole;
  std::shared_ptr<const Reference> reference;
};

DistributedSource::DistributedSource(RankGroup& ranks, const DistributedSettings& settings,
                                     const IsolationSettings& isolation, FactsCallback on_facts)
    : settings_(settings),
      isolation_(isolation),
      on_facts_(std::move(on_facts)),
      all_(ranks.exchange()),
      alone_(ranks.exchange_alone()) {
  // No exchange waits longer for the other ranks than a cell may take (0: no limit).
  all_->set_timeout(isolation.timeout_s);
  alone_->set_timeout(isolation.timeout_s);
}

DistributedSource::~DistributedSource() {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();  // what plugins say on closing
  problems_.clear();
  sessions_.clear();
}

void DistributedSource::problem_done() {
  problems_.clear();
}

const DistributedSource::Problem& DistributedSource::problem_for(const CellRequest& request,
                                                                 int ranks) {
  std::unique_ptr<Problem>& cached = problems_[ranks];
  if (cached && cached->workload == request.workload &&
      cached->distribution == request.distribution && cached->shape == request.shape) {
    return *cached;
  }
  cached.reset();
  const Workload* workload = WorkloadRegistry::instance().find(request.workload);
  auto problem = std::make_unique<Problem>();
  problem->workload = request.workload;
  problem->distribution = request.distribution;
  problem->shape = request.shape;
  problem->whole = workload->generate(whole_shape(request.shape, settings_.scaling, ranks),
                                      request.distribution);
  problem->reference = workload->reference(problem->whole);
  cached = std::move(problem);
  return *cached;
}

std::optional<CellResult> DistributedSource::run(const PluginRecord& plugin,
                                                 const CellRequest& request) {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();
  const auto* workload =
      dynamic_cast<const DistributedWorkload*>(WorkloadRegistry::instance().find(request.workload));
  const KernelRecord* kernel =
      workload ? plugin.find_kernel(workload->kernel_workload(), request.variant) : nullptr;
  if (kernel == nullptr) {
    return unrun_cell(
        plugin, request, CellStatus::error,
        "no kernel " + request.workload + "/" + request.variant + " in " + plugin.path);
  }
  // This rank's session and problem, then every rank learns whether each has them: a rank that
  // cannot run the cell must not leave the others waiting in its collectives.
  std::optional<CellResult> cannot;
  try {
    open_session(plugin);
    problem_for(request, all_->ranks());
  } catch (const PluginCallError& e) {
    unavailable_.emplace(plugin.name, e.what());
    cannot = unrun_cell(plugin, request, CellStatus::unavailable, e.what());
  } catch (const std::bad_alloc&) {
    cannot = unrun_cell(plugin, request, CellStatus::oom, kNoMemoryForProblem);
  }
  if (auto it = unavailable_.find(plugin.name); it != unavailable_.end() && !cannot) {
    cannot = unrun_cell(plugin, request, CellStatus::unavailable, it->second);
  }
  const std::vector<std::int64_t> missing = all_->allgather({cannot ? 1 : 0});
  if (cannot) return cannot;
  for (std::size_t r = 0; r < missing.size(); ++r) {
    if (missing[r] != 0) {
      return unrun_cell(plugin, request, CellStatus::error,
                        "rank " + std::to_string(r) +
                            " could not run this cell (its own cell says why): it needs "
                            "every rank");
    }
  }

  const PluginSession& open = *sessions_.at(plugin.name);
  const auto measure_on = [&](RankExchange& exchange) {
    const Problem& problem = problem_for(request, exchange.ranks());
    DistributedCellSpec spec{*workload,     problem.whole,     *problem.reference,
                             request.shape, settings_.scaling, settings_.staging};
    return measure_distributed_cell(spec, open, *kernel, request.settings, exchange);
  };
  std::optional<CellResult> measured;
  try {
    measured = measure_on(*all_);
  } catch (const DistributedCellStopped&) {
    return std::nullopt;  // a stop signal on some rank: every rank drops this cell
  }
  CellResult& cell = *measured;
  if (all_->ranks() == 1 && cell.kernel) {
    cell.distributed->one_rank_ms = cell.kernel->median_ms;
  } else if (all_->rank() == 0 && cell.status == CellStatus::ok && !stop_requested()) {
    // The same cell on one rank alone, the others waiting at their next meeting.
    try {
      const CellResult alone = measure_on(*alone_);
      if (alone.status == CellStatus::ok && alone.kernel) {
        cell.distributed->one_rank_ms = alone.kernel->median_ms;
      }
    } catch (const std::bad_alloc&) {
      cell.message = "no one-rank time: " + std::string(kNoMemoryForProblem);
    } catch (const DistributedCellStopped&) {
      cell.message = "no one-rank time: stopped by a signal";
    }
  }
  return cell;
}

void DistributedSource::open_session(const PluginRecord& plugin) {
  if (sessions_.count(plugin.name) || unavailable_.count(plugin.name)) return;
  auto opened = std::make_unique<PluginSession>(plugin, isolation_.device);
  SessionFacts facts;
  facts.process = process_cpu_description();
  if (auto info = opened->device_info()) facts.device = to_json(*info);
  on_facts_(plugin, facts);
  sessions_.emplace(plugin.name, std::move(opened));
}

}  // namespace plugbench
