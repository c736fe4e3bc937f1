// dist_reduce_steps.cpp: dist_reduce's passes on one rank.
#include "distribute/dist_reduce_steps.hpp"

#include "distribute/exchange_kernel.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace plugbench {
namespace {

// dist_reduce: the local sum, then MPI_Allreduce of it, in place.
class ReduceSteps final : public ExchangeSteps {
 public:
  ReduceSteps(const ProblemData& part, const PluginSession& session, const KernelRecord& kernel,
              const StagingChoice& staging, RankExchange& exchange)
      : session_(session),
        exchange_(exchange),
        input_(session, part.inputs.at(0).size_bytes()),
        sum_(session, sizeof(std::int64_t)),
        call_(session, kernel, part.workload, part.shape.n),
        staged_sum_(pinned_copy(session, staging, sizeof(std::int64_t))) {
    input_.copy_in(part.inputs[0].data(), part.inputs[0].size_bytes());
  }

  PassTimes run() override {
    PassTimes times;
    std::exception_ptr failure;
    try {
      if (call_.n() == 0) {
        const std::int64_t zero = 0;  // no kernel call for an empty slice: its sum is 0
        sum_.copy_in(&zero, sizeof zero);
      }
      times.local_ms = call_.timed(input_.get(), sum_.get());
    } catch (...) {
      failure = std::current_exception();
    }
    agree_on_step(exchange_, failure, "reduce");
    const StepClock::time_point start = StepClock::now();
    if (staged_sum_) {
      sum_.copy_out(staged_sum_->get(), sizeof(std::int64_t));
      exchange_.allreduce_sum(static_cast<std::int64_t*>(staged_sum_->get()), 1);
      sum_.copy_in(staged_sum_->get(), sizeof(std::int64_t));
    } else {
      exchange_.allreduce_sum(static_cast<std::int64_t*>(sum_.get()), 1);
    }
    times.exchange_ms = ms_since(start);
    return times;
  }

  std::vector<HostArray> answer() const override {
    std::vector<HostArray> outputs;
    outputs.emplace_back("sum", ElementType::int64, 1);
    sum_.copy_out(outputs[0].data(), outputs[0].size_bytes());
    return outputs;
  }
  void poison() override { poison_buffer(sum_); }
  std::uint64_t bytes_sent() const override {
    return exchange_.ranks() > 1 ? sizeof(std::int64_t) : 0;
  }

 private:
  const PluginSession& session_;
  RankExchange& exchange_;
  PluginBuffer input_;
  PluginBuffer sum_;
  KernelCall call_;
  std::optional<HostStaging> staged_sum_;
};

}  // namespace

std::unique_ptr<ExchangeSteps> make_dist_reduce_steps(const ProblemData& part,
                                                      const PluginSession& session,
                                                      const KernelRecord& kernel,
                                                      const StagingChoice& staging,
                                                      RankExchange& exchange) {
  return std::make_unique<ReduceSteps>(part, session, kernel, staging, exchange);
}

}  // namespace plugbench
