// distributed_source.cpp: distributed cells on sessions in the rank's process.
#include "distribute/distributed_source.hpp"

#include "distribute/distributed_cell.hpp"
#include "isolate/stdout_diversion.hpp"
#include "record/host_info.hpp"
#include "record/results_json.hpp"

#include <new>

namespace plugbench {

struct DistributedSource::Problem {
  std::string workload, distribution;
  Shape shape;
  ProblemData whole;
  std::shared_ptr<const Reference> reference;
};

DistributedSource::DistributedSource(RankGroup& ranks, const DistributedSettings& settings,
                                     FactsCallback on_facts)
    : settings_(settings),
      on_facts_(std::move(on_facts)),
      all_(ranks.exchange()),
      alone_(ranks.exchange_alone()) {
  all_->set_timeout(settings.timeout_s);
  alone_->set_timeout(settings.timeout_s);
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
        plugin, request, status::error,
        "no kernel " + request.workload + "/" + request.variant + " in " + plugin.path);
  }
  if (unavailable_.count(plugin.name)) {
    return unrun_cell(plugin, request, status::unavailable, unavailable_[plugin.name]);
  }
  auto session = sessions_.find(plugin.name);
  if (session == sessions_.end()) {
    try {
      auto opened = std::make_unique<PluginSession>(plugin, settings_.device);
      SessionFacts facts;
      facts.process = process_cpu_description();
      if (auto info = opened->device_info()) facts.device = to_json(*info);
      on_facts_(plugin, facts);
      session = sessions_.emplace(plugin.name, std::move(opened)).first;
    } catch (const PluginCallError& e) {
      unavailable_[plugin.name] = e.what();
      return unrun_cell(plugin, request, status::unavailable, e.what());
    }
  }
  const PluginSession& open = *session->second;
  const auto measure_on = [&](RankExchange& exchange) {
    const Problem& problem = problem_for(request, exchange.ranks());
    DistributedCellSpec spec{*workload,     problem.whole,     *problem.reference,
                             request.shape, settings_.scaling, settings_.staging};
    return measure_distributed_cell(spec, open, *kernel, request.settings, exchange);
  };
  CellResult cell;
  try {
    cell = measure_on(*all_);
    if (all_->ranks() == 1 && cell.kernel) {
      cell.distributed->one_rank_ms = cell.kernel->median_ms;
    } else if (all_->rank() == 0 && cell.status == status::ok) {
      // The same cell on one rank alone, the others waiting at their next meeting.
      const CellResult alone = measure_on(*alone_);
      if (alone.status == status::ok && alone.kernel) {
        cell.distributed->one_rank_ms = alone.kernel->median_ms;
      }
    }
  } catch (const std::bad_alloc&) {
    return unrun_cell(plugin, request, status::oom,
                      "the harness ran out of host memory generating the problem and its "
                      "reference");
  }
  return cell;
}

}  // namespace plugbench
