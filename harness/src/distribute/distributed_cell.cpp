// distributed_cell.cpp: a distributed cell's protocol. The timed region of a sample is one pass:
// from the start of the local kernel to the end of the last one, every rank having met the others
// first (outside it). Allocation, verification and the choice of staging stay outside.
#include "distribute/distributed_cell.hpp"

#include "base/stop_signal.hpp"
#include "distribute/exchange_steps.hpp"
#include "measure/cell_identity.hpp"
#include "measure/cell_protocol.hpp"

#include <algorithm>
#include <chrono>

namespace plugbench {
namespace {

using Clock = std::chrono::steady_clock;

// The answer of every rank checked together: each rank's summary gathered to all.
Verification verify_over_ranks(const DistributedCellSpec& spec, ExchangeSteps& steps,
                               RankExchange& exchange) {
  const RankSummary mine = spec.workload.summarize(steps.answer());
  const std::vector<std::int64_t> all = exchange.allgather(mine);
  std::vector<RankSummary> summaries;
  for (std::size_t at = 0; at < all.size(); at += mine.size()) {
    summaries.emplace_back(all.begin() + at, all.begin() + at + mine.size());
  }
  return spec.workload.verify_ranks(spec.whole, spec.reference, summaries);
}

}  // namespace

Shape whole_shape(const Shape& requested, Scaling scaling, int ranks) {
  const std::uint64_t n =
      scaling == Scaling::weak ? requested.n * static_cast<std::uint64_t>(ranks) : requested.n;
  return {n, n, 1};
}

CellResult measure_distributed_cell(const DistributedCellSpec& spec, const PluginSession& session,
                                    const KernelRecord& kernel, const RunSettings& settings,
                                    RankExchange& exchange) {
  const DistributedWorkload& workload = spec.workload;
  CellResult cell = named_cell(session.plugin(), workload.name(), kernel.variant,
                               spec.whole.distribution, spec.requested);
  cell.flags = kernel.flags;
  const ProblemData part = workload.rank_part(spec.whole, exchange.rank(), exchange.ranks());
  cell.traffic = workload.traffic(part, spec.reference);
  DistributedRecord record;
  record.ranks = exchange.ranks();
  record.scaling = spec.scaling;
  record.n_total = spec.whole.shape.n;
  record.n_local = part.shape.n;
  try {
    std::unique_ptr<ExchangeSteps> steps;
    std::exception_ptr setup_failure;
    try {
      const StagingChoice staging =
          choose_staging(session.plugin(), spec.staging, exchange.device_buffers());
      record.staging = to_string(staging.mode);
      record.staging_reason = staging.reason;
      cell.team = session.execution_context();
      steps = make_exchange_steps(workload, part, session, kernel, staging, exchange);
    } catch (const std::invalid_argument& e) {
      setup_failure = std::make_exception_ptr(PluginCallError(PB_ERROR, e.what()));
    } catch (...) {
      setup_failure = std::current_exception();
    }
    agree_on_step(exchange, setup_failure, "setup (buffers, staging)");

    // The checked pass: outputs poisoned, one pass, the whole answer verified.
    steps->poison();
    const auto started = Clock::now();
    steps->run();
    session.sync();
    const double call_ms =
        std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    cell.verification = verify_over_ranks(spec, *steps, exchange);
    if (!cell.verification->passed) {
      cell.status = CellStatus::failed;
      cell.message = "wrong answer: " + cell.verification->detail;
    }
    for (int i = 0; i < settings.warmup; ++i) steps->run();
    session.sync();

    // Every rank takes as many samples as the slowest rank's checked pass allows (a collective
    // per sample: the counts must agree). --min-time does not apply: one pass per sample.
    const std::vector<std::int64_t> call_us =
        exchange.allgather({static_cast<std::int64_t>(call_ms * 1e3)});
    const double slowest_ms = *std::max_element(call_us.begin(), call_us.end()) / 1e3;
    MeasureSettings measure_with;
    measure_with.repetitions =
        settings.repetitions.value_or(automatic_repetitions(slowest_ms, settings.cell_budget));
    const std::string name = cell.workload + "/" + cell.plugin + "/" + cell.variant + "/" +
                             std::to_string(spec.requested.n) + "/" + cell.distribution;
    Measurement m = measure(name, measure_with, [&] {
      if (settings.cache == CacheMode::cold) session.flush_cache();
      session.sync();
      // The meeting before the sample carries each rank's stop signal: all stop, or none.
      const std::vector<std::int64_t> stops = exchange.allgather({stop_requested() ? 1 : 0});
      if (std::any_of(stops.begin(), stops.end(), [](std::int64_t s) { return s != 0; })) {
        throw DistributedCellStopped{};
      }
      const auto start = Clock::now();
      const PassTimes times = steps->run();
      session.sync();
      Sample s;
      s.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      s.parts_ms["local"] = times.local_ms;
      s.parts_ms["exchange"] = times.exchange_ms;
      return s;
    });
    cell.kernel = m.total;
    cell.end_to_end = m.total;
    record.local = m.parts["local"];
    record.exchange = m.parts["exchange"];
    record.bytes_sent = steps->bytes_sent();
    if (record.bytes_sent > 0 && record.exchange.median_ms > 0) {
      record.exchange_gbps = record.bytes_sent / (record.exchange.median_ms * 1e6);
    }
    record.keys_per_rank = steps->keys_per_rank();

    if (cell.status == CellStatus::ok) {
      // The timed passes must produce the answer too.
      steps->poison();
      steps->run();
      session.sync();
      const Verification again = verify_over_ranks(spec, *steps, exchange);
      if (!again.passed) {
        cell.verification = again;
        cell.status = CellStatus::failed;
        cell.message = "the timed passes did not produce the answer: " + again.detail;
      }
    }
  } catch (const PluginCallError& e) {
    end_cell(cell, cell_status_for(e.status()), e.what());
  } catch (const ExchangeTimeout& e) {
    end_cell(cell, CellStatus::error, e.what());
  } catch (const std::bad_alloc&) {
    end_cell(cell, CellStatus::oom, "the harness ran out of host memory for this problem");
  }
  cell.distributed = record;
  return cell;
}

}  // namespace plugbench
