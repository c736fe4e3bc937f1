// dist_sort_steps.cpp: dist_sort's passes on one rank.
#include "distribute/dist_sort_steps.hpp"

#include "distribute/exchange_kernel.hpp"
#include "distribute/sample_sort.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace plugbench {
namespace {

// dist_sort: local sort; regular samples gathered, splitters chosen the same on every rank; the
// sorted keys cut at the splitters and exchanged (MPI_Alltoallv); what arrived sorted again.
class SortSteps final : public ExchangeSteps {
 public:
  SortSteps(const ProblemData& part, const PluginSession& session, const KernelRecord& kernel,
            const StagingChoice& staging, RankExchange& exchange)
      : session_(session),
        kernel_(kernel),
        staging_(staging),
        exchange_(exchange),
        workload_(part.workload),
        n_(part.shape.n),
        input_(session, n_ * sizeof(std::uint32_t)),
        sorted_(session, n_ * sizeof(std::uint32_t)),
        local_call_(session, kernel, part.workload, n_),
        staged_send_(pinned_copy(session, staging, n_ * sizeof(std::uint32_t))) {
    input_.copy_in(part.inputs.at(0).data(), part.inputs[0].size_bytes());
  }

  PassTimes run() override {
    PassTimes times;
    std::exception_ptr failure;
    try {
      times.local_ms = local_call_.timed(input_.get(), sorted_.get());
    } catch (...) {
      failure = std::current_exception();
    }
    agree_on_step(exchange_, failure, "local sort");

    const StepClock::time_point start = StepClock::now();
    const int ranks = exchange_.ranks(), rank = exchange_.rank();
    const void* send = sorted_.get();
    if (staged_send_) {
      sorted_.copy_out(staged_send_->get(), n_ * sizeof(std::uint32_t));
      send = staged_send_->get();
    }
    const auto key_at = [&](std::uint64_t i) { return read_key(send, i); };
    const std::vector<std::uint64_t> positions = sample_positions(n_, ranks);
    std::vector<std::uint32_t> samples;
    for (std::uint64_t position : positions) samples.push_back(key_at(position));
    const std::vector<SortPosition> splitters = choose_splitters(
        exchange_.allgather(encode_samples(samples, positions, rank, ranks)), ranks);
    const std::vector<std::uint64_t> bounds = bucket_bounds(
        splitters, rank, n_, [&](std::uint32_t k) { return search_keys(n_, k, false, key_at); },
        [&](std::uint32_t k) { return search_keys(n_, k, true, key_at); });
    std::vector<std::int64_t> my_counts;
    for (int d = 0; d < ranks; ++d) my_counts.push_back(bounds[d + 1] - bounds[d]);
    counts_ = exchange_.allgather(my_counts);  // counts_[s * ranks + d]: from s to d
    std::vector<std::uint64_t> send_bytes, recv_bytes;
    std::uint64_t received = 0;
    bytes_sent_ = 0;
    for (int r = 0; r < ranks; ++r) {
      send_bytes.push_back(my_counts[r] * sizeof(std::uint32_t));
      if (r != rank) bytes_sent_ += send_bytes.back();
      const auto from = static_cast<std::uint64_t>(counts_[r * ranks + rank]);
      recv_bytes.push_back(from * sizeof(std::uint32_t));
      received += from;
    }
    make_room(received);
    void* recv = staged_recv_ ? staged_recv_->get() : received_->get();
    exchange_.alltoallv(send, send_bytes, recv, recv_bytes);
    if (staged_recv_) received_->copy_in(staged_recv_->get(), received * sizeof(std::uint32_t));
    times.exchange_ms = ms_since(start);

    failure = nullptr;
    try {
      times.local_ms += merge_call_->timed(received_->get(), result_->get());
    } catch (...) {
      failure = std::current_exception();
    }
    agree_on_step(exchange_, failure, "sort of the received keys");
    return times;
  }

  std::vector<HostArray> answer() const override {
    std::vector<HostArray> outputs;
    const std::uint64_t count = merge_call_ ? merge_call_->n() : 0;
    outputs.emplace_back("sorted", ElementType::uint32, count);
    if (count > 0) result_->copy_out(outputs[0].data(), outputs[0].size_bytes());
    return outputs;
  }
  void poison() override {
    poison_buffer(sorted_);
    if (result_) poison_buffer(*result_);
  }
  std::uint64_t bytes_sent() const override { return bytes_sent_; }
  std::vector<std::uint64_t> keys_per_rank() const override {
    const int ranks = exchange_.ranks();
    std::vector<std::uint64_t> keys(ranks, 0);
    for (std::size_t i = 0; i < counts_.size(); ++i) keys[i % ranks] += counts_[i];
    return keys;
  }

 private:
  // Key i of the sorted keys where MPI reads them: host memory, or one copy per key from a device.
  std::uint32_t read_key(const void* keys, std::uint64_t i) const {
    if (staging_.mode != StagingMode::direct) return static_cast<const std::uint32_t*>(keys)[i];
    std::uint32_t key = 0;
    ErrorBuffer error;
    check_call(session_.table().copy_out(session_.handle(), &key,
                                         static_cast<const std::uint32_t*>(keys) + i, sizeof key,
                                         error.get()),
               "copy_out of one key", error);
    return key;
  }

  // Buffers for `count` received keys: made on the first pass (the checked one, untimed); the
  // same problem splits the same way on every later pass.
  void make_room(std::uint64_t count) {
    if (merge_call_ && merge_call_->n() == count) return;
    const std::uint64_t bytes = count * sizeof(std::uint32_t);
    received_.emplace(session_, bytes);
    result_.emplace(session_, bytes);
    poison_buffer(*result_);
    merge_call_.emplace(session_, kernel_, workload_, count);
    staged_recv_.reset();
    if (staging_.mode == StagingMode::staged) {
      staged_recv_.emplace(session_, std::max<std::uint64_t>(bytes, 1), PB_HOST_PINNED);
    }
  }

  const PluginSession& session_;
  const KernelRecord& kernel_;
  StagingChoice staging_;
  RankExchange& exchange_;
  std::string workload_;
  std::uint64_t n_;
  PluginBuffer input_;
  PluginBuffer sorted_;
  KernelCall local_call_;
  std::optional<HostStaging> staged_send_;
  std::optional<PluginBuffer> received_;
  std::optional<PluginBuffer> result_;
  std::optional<KernelCall> merge_call_;
  std::optional<HostStaging> staged_recv_;
  std::vector<std::int64_t> counts_;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace

std::unique_ptr<ExchangeSteps> make_dist_sort_steps(const ProblemData& part,
                                                    const PluginSession& session,
                                                    const KernelRecord& kernel,
                                                    const StagingChoice& staging,
                                                    RankExchange& exchange) {
  return std::make_unique<SortSteps>(part, session, kernel, staging, exchange);
}

}  // namespace plugbench
