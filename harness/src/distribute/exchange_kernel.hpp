// exchange_kernel.hpp: what the distributed workloads' passes share: one kernel call on the
// plugin's buffers under its timer, the pinned host copy MPI uses where it cannot take the plugin's
// memory, and the poison an answer's buffers get before a pass must overwrite them.
#pragma once

#include "distribute/exchange_steps.hpp"
#include "load/plugin_session.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace plugbench {

using StepClock = std::chrono::steady_clock;

inline double ms_since(StepClock::time_point start) {
  return std::chrono::duration<double, std::milli>(StepClock::now() - start).count();
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

// The pinned host copy of a plugin buffer that MPI reads or writes instead (staging); none where
// MPI takes the plugin's buffers.
std::optional<HostStaging> pinned_copy(const PluginSession& session, const StagingChoice& staging,
                                       std::uint64_t bytes);

void poison_buffer(const PluginBuffer& buffer);

}  // namespace plugbench
