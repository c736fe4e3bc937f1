// plugin_session.cpp: sessions and buffers of a plugin.
#include "load/plugin_session.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>

namespace plugbench {

double checked_elapsed_ms(double ms, const char* function) {
  if (std::isfinite(ms) && ms >= 0) return ms;
  char value[64];
  std::snprintf(value, sizeof value, "%g", ms);
  throw PluginCallError(PB_ERROR,
                        std::string("the plugin's timer (") + function + ") reported " + value +
                            " ms: an elapsed time must be finite and not negative, so "
                            "no time of this cell can be trusted; fix the plugin's timer");
}

// An ABI 1.1 function of the table: present only if the plugin's table is long enough to hold it.
#define PB_OPTIONAL_FUNCTION(table, field)                                                   \
  ((table).struct_size >= offsetof(pb_plugin, field) + sizeof((table).field) ? (table).field \
                                                                             : nullptr)

void check_call(pb_status status, const std::string& what, const ErrorBuffer& error) {
  if (status == PB_OK) return;
  std::string message = error.text();
  // PB_UNSUPPORTED is a refusal, not a failure: "the kernel refused the problem: needs n <= 1000".
  const char* outcome = status == PB_UNSUPPORTED ? " refused the problem" : " failed";
  throw PluginCallError(status, what + outcome + (message.empty() ? "" : ": " + message));
}

PluginSession::PluginSession(const PluginRecord& plugin, int device) : plugin_(plugin) {
  ErrorBuffer error;
  check_call(table().open(device, &handle_, error.get()),
             "opening a session of " + plugin.name + " on device " + std::to_string(device), error);
}

PluginSession::~PluginSession() {
  if (handle_) table().close(handle_);
}

std::optional<pb_device_info> PluginSession::device_info() const {
  if (table().device_info == nullptr) return std::nullopt;
  pb_device_info info{};
  info.struct_size = sizeof info;
  ErrorBuffer error;
  if (table().device_info(handle_, &info, error.get()) != PB_OK) return std::nullopt;
  return info;
}

bool PluginSession::has_sample_timer() const {
  return PB_OPTIONAL_FUNCTION(table(), timer_begin) != nullptr &&
         PB_OPTIONAL_FUNCTION(table(), timer_end) != nullptr;
}

bool PluginSession::has_read_within() const {
  return PB_OPTIONAL_FUNCTION(table(), read_within) != nullptr;
}

TimedSample PluginSession::end_sample() const {
  pb_sample_timing timing{};
  timing.struct_size = sizeof timing;
  ErrorBuffer error;
  check_call(table().timer_end(handle_, &timing, error.get()), "timer_end", error);
  TimedSample sample;
  sample.ms = checked_elapsed_ms(timing.elapsed_ms, "timer_end");
  sample.sm_clock_khz = timing.sm_clock_khz;
  sample.clock_window_ms = timing.clock_window_ms;
  sample.hold = timing.hold;
  return sample;
}

void PluginSession::read_within(const void* source, std::uint64_t bytes) const {
  ErrorBuffer error;
  check_call(table().read_within(handle_, source, bytes, error.get()), "read_within", error);
}

std::optional<ExecutionContext> PluginSession::execution_context() const {
  auto describe = PB_OPTIONAL_FUNCTION(table(), execution_context);
  if (describe == nullptr) return std::nullopt;
  pb_execution_context context{};
  context.struct_size = sizeof context;
  ErrorBuffer error;
  if (describe(handle_, &context, error.get()) != PB_OK) return std::nullopt;
  return ExecutionContext{context.threads, bounded_text(context.binding, sizeof context.binding),
                          bounded_text(context.places, sizeof context.places)};
}

void PluginSession::sync() const {
  ErrorBuffer error;
  check_call(table().sync(handle_, error.get()), "sync", error);
}

void PluginSession::flush_cache() const {
  if (table().flush_cache == nullptr) return;
  ErrorBuffer error;
  check_call(table().flush_cache(handle_, error.get()), "flush_cache", error);
}

PluginBuffer::PluginBuffer(const PluginSession& session, std::uint64_t bytes)
    : session_(&session), bytes_(bytes) {
  ErrorBuffer error;
  check_call(session.table().alloc(session.handle(), bytes, &pointer_, error.get()),
             "allocating " + std::to_string(bytes) + " bytes", error);
}

PluginBuffer::~PluginBuffer() {
  if (pointer_) session_->table().release(session_->handle(), pointer_);
}

PluginBuffer::PluginBuffer(PluginBuffer&& other) noexcept
    : session_(other.session_), pointer_(other.pointer_), bytes_(other.bytes_) {
  other.pointer_ = nullptr;
}

void PluginBuffer::copy_in(const void* host_source, std::uint64_t bytes) const {
  ErrorBuffer error;
  check_call(
      session_->table().copy_in(session_->handle(), pointer_, host_source, bytes, error.get()),
      "copy_in", error);
}

void PluginBuffer::copy_out(void* host_target, std::uint64_t bytes) const {
  ErrorBuffer error;
  check_call(
      session_->table().copy_out(session_->handle(), host_target, pointer_, bytes, error.get()),
      "copy_out", error);
}

HostStaging::HostStaging(const PluginSession& session, std::uint64_t bytes, pb_host_memory kind)
    : session_(&session), kind_(kind) {
  ErrorBuffer error;
  check_call(session.table().alloc_host(session.handle(), bytes, kind, &pointer_, error.get()),
             "allocating " + std::to_string(bytes) + " bytes of host staging memory", error);
}

HostStaging::~HostStaging() {
  if (pointer_) session_->table().release_host(session_->handle(), pointer_, kind_);
}

HostStaging::HostStaging(HostStaging&& other) noexcept
    : session_(other.session_), pointer_(other.pointer_), kind_(other.kind_) {
  other.pointer_ = nullptr;
}

}  // namespace plugbench
