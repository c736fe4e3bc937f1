// exchange_steps.cpp: dist_reduce's and dist_sort's passes.
#include "distribute/exchange_steps.hpp"

#include "distribute/sample_sort.hpp"

#include <chrono>
#include <cstring>
#include <optional>

namespace plugbench {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One kernel call's buffers: inputs and outputs in the plugin's memory, with its workspace.
class KernelCall {
 public:
  KernelCall(const PluginSession& session, const KernelRecord& kernel, const std::string& workload,
             std::uint64_t n)
      : session_(session), kernel_(kernel), workload_(workload) {
    params_.struct_size = sizeof(pb_problem);
    params_.workload = workload_.c_str();
    params_.n = params_.width = n;
    params_.height = 1;
    std::uint64_t bytes = 0;
    if (kernel.table->workspace_bytes != nullptr) {
      ErrorBuffer error;
      check_call(kernel.table->workspace_bytes(kernel.table, session.handle(), &params_, &bytes,
                                               error.get()),
                 "workspace_bytes", error);
    }
    if (bytes > 0) workspace_.emplace(session, bytes);
  }

  // Runs the kernel from `input` to `output` under the plugin's timer; n = 0 is no call.
  double timed(const void* input, void* output) {
    if (params_.n == 0) return 0;
    const void* inputs[] = {input};
    void* outputs[] = {output};
    pb_buffers buffers{};
    buffers.struct_size = sizeof(pb_buffers);
    buffers.input_count = 1;
    buffers.inputs = inputs;
    buffers.output_count = 1;
    buffers.outputs = outputs;
    buffers.workspace = workspace_ ? workspace_->get() : nullptr;
    buffers.workspace_bytes = workspace_ ? workspace_->bytes() : 0;
    return session_.timed([&] {
      ErrorBuffer error;
      check_call(
          kernel_.table->run(kernel_.table, session_.handle(), &params_, &buffers, error.get()),
          "the kernel", error);
    });
  }
  std::uint64_t n() const { return params_.n; }

 private:
  const PluginSession& session_;
  const KernelRecord& kernel_;
  std::string workload_;
  pb_problem params_{};
  std::optional<PluginBuffer> workspace_;
};

// The pinned host copy of a plugin buffer that MPI reads or writes instead (staging).
std::optional<HostStaging> pinned_copy(const PluginSession& session, const StagingChoice& staging,
                                       std::uint64_t bytes) {
  if (staging.mode != "staged") return std::nullopt;
  return std::optional<HostStaging>(std::in_place, session, std::max<std::uint64_t>(bytes, 1),
                                    PB_HOST_PINNED);
}

void poison_buffer(const PluginBuffer& buffer) {
  std::vector<unsigned char> poison(buffer.bytes(), 0xA5);
  if (!poison.empty()) buffer.copy_in(poison.data(), poison.size());
}

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
    const Clock::time_point start = Clock::now();
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

    const Clock::time_point start = Clock::now();
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
    if (staging_.mode != "direct") return static_cast<const std::uint32_t*>(keys)[i];
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
    if (staging_.mode == "staged") {
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

StagingChoice choose_staging(const PluginRecord& plugin, MpiStaging asked,
                             const DeviceBufferSupport& support) {
  if (plugin.memory_space != PB_MEMORY_DEVICE) {
    return {"host", "the plugin's buffers are host memory: MPI reads and writes them in place"};
  }
  if (asked == MpiStaging::host) return {"staged", "--mpi-staging host"};
  if (asked == MpiStaging::direct) {
    if (!support.usable) {
      throw std::invalid_argument(
          "--mpi-staging direct, but the MPI library does not take device "
          "buffers (" +
          support.how + "); use --mpi-staging host or auto, or a CUDA-aware MPI");
    }
    return {"direct", "--mpi-staging direct; " + support.how};
  }
  if (support.usable) return {"direct", support.how};
  return {"staged", support.how};
}

std::unique_ptr<ExchangeSteps> make_exchange_steps(
    const DistributedWorkload& workload, const ProblemData& part, const PluginSession& session,
    const KernelRecord& kernel, const StagingChoice& staging, RankExchange& exchange) {
  if (workload.kernel_workload() == "reduce") {
    return std::make_unique<ReduceSteps>(part, session, kernel, staging, exchange);
  }
  if (workload.kernel_workload() == "sort") {
    return std::make_unique<SortSteps>(part, session, kernel, staging, exchange);
  }
  throw std::logic_error("no exchange for distributed workload " + workload.name());
}

void agree_on_step(RankExchange& exchange, const std::exception_ptr& failure, const char* step) {
  const std::vector<std::int64_t> failed = exchange.allgather({failure ? 1 : 0});
  if (failure) std::rethrow_exception(failure);
  for (std::size_t r = 0; r < failed.size(); ++r) {
    if (failed[r] != 0) {
      throw PluginCallError(PB_ERROR, "rank " + std::to_string(r) + "'s " + step +
                                          " failed (its own cell says why); every rank stopped "
                                          "this cell");
    }
  }
}

}  // namespace plugbench
