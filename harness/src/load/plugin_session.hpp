// plugin_session.hpp: an open session of a loaded plugin, and buffers in its memory, as RAII
// objects. Every plugin call's status becomes a PluginCallError that carries the plugin's message.
#pragma once

#include "load/execution_context.hpp"
#include "load/plugin_loader.hpp"
#include "load/plugin_text.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace plugbench {

// A plugin call that did not return PB_OK.
class PluginCallError : public std::runtime_error {
 public:
  PluginCallError(pb_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  pb_status status() const { return status_; }

 private:
  pb_status status_;
};

// A time the plugin's timer reported, unless it is NaN, infinite or negative: then a PB_ERROR
// PluginCallError naming `function`, since no median, GB/s or speedup built on it would mean
// anything.
double checked_elapsed_ms(double ms, const char* function);

// A caller-owned message buffer for one plugin call.
class ErrorBuffer {
 public:
  ErrorBuffer() { text_[0] = '\0'; }
  pb_error* get() {
    text_[0] = '\0';
    error_ = {text_, sizeof text_};
    return &error_;
  }
  // What the plugin wrote: up to the buffer's end when it left no NUL, as valid UTF-8.
  std::string text() const { return bounded_text(text_, sizeof text_); }

 private:
  char text_[2048];
  pb_error error_{};
};

// Throws PluginCallError when status is not PB_OK: "<what>: <plugin's message>".
void check_call(pb_status status, const std::string& what, const ErrorBuffer& error);

// One timed sample and what the plugin's timer knows about it (ABI 1.1; zero where not measured).
struct TimedSample {
  double ms = 0;
  double sm_clock_khz = 0;     // the device's core clock over the sample
  double clock_window_ms = 0;  // the window that clock was measured over
  pb_timer_hold hold = PB_HOLD_NONE;
};

class PluginSession {
 public:
  PluginSession(const PluginRecord& plugin, int device);
  ~PluginSession();
  PluginSession(const PluginSession&) = delete;
  PluginSession& operator=(const PluginSession&) = delete;

  const PluginRecord& plugin() const { return plugin_; }
  const pb_plugin& table() const { return *plugin_.table; }
  void* handle() const { return handle_; }
  std::optional<pb_device_info> device_info() const;

  void sync() const;
  void flush_cache() const;
  // Runs `body` between timer_start and timer_stop; returns the elapsed milliseconds.
  template <class Body>
  double timed(Body&& body) const {
    ErrorBuffer error;
    check_call(table().timer_start(handle_, error.get()), "timer_start", error);
    body();
    double ms = 0;
    check_call(table().timer_stop(handle_, &ms, error.get()), "timer_stop", error);
    return checked_elapsed_ms(ms, "timer_stop");
  }
  // Runs `body` between timer_begin and timer_end (PB_TIMER_* flags), or, for a plugin without
  // them, between timer_start and timer_stop.
  template <class Body>
  TimedSample timed_sample(std::uint32_t flags, Body&& body) const {
    if (!has_sample_timer()) return TimedSample{timed(body)};
    ErrorBuffer error;
    check_call(table().timer_begin(handle_, flags, error.get()), "timer_begin", error);
    try {
      body();
    } catch (...) {
      // The sample's start may be held behind a blocking kernel: release it before giving up.
      try {
        end_sample();
      } catch (const PluginCallError&) {
      }
      throw;
    }
    return end_sample();
  }
  bool has_sample_timer() const;
  bool has_read_within() const;
  // Enqueues a read of `bytes` of the plugin's memory (read_within); needs has_read_within().
  void read_within(const void* source, std::uint64_t bytes) const;
  std::optional<ExecutionContext> execution_context() const;

 private:
  TimedSample end_sample() const;

  const PluginRecord& plugin_;
  void* handle_ = nullptr;
};

// A buffer in the plugin's memory space, released when it goes out of scope.
class PluginBuffer {
 public:
  PluginBuffer(const PluginSession& session, std::uint64_t bytes);
  ~PluginBuffer();
  PluginBuffer(PluginBuffer&& other) noexcept;
  PluginBuffer(const PluginBuffer&) = delete;
  PluginBuffer& operator=(const PluginBuffer&) = delete;
  PluginBuffer& operator=(PluginBuffer&&) = delete;

  void* get() const { return pointer_; }
  std::uint64_t bytes() const { return bytes_; }
  void copy_in(const void* host_source, std::uint64_t bytes) const;
  void copy_out(void* host_target, std::uint64_t bytes) const;

 private:
  const PluginSession* session_;
  void* pointer_ = nullptr;
  std::uint64_t bytes_ = 0;
};

// A host staging buffer from the plugin (pinned or pageable), released when out of scope.
class HostStaging {
 public:
  HostStaging(const PluginSession& session, std::uint64_t bytes, pb_host_memory kind);
  ~HostStaging();
  HostStaging(HostStaging&& other) noexcept;
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;
  HostStaging& operator=(HostStaging&&) = delete;
  void* get() const { return pointer_; }

 private:
  const PluginSession* session_;
  void* pointer_ = nullptr;
  pb_host_memory kind_;
};

}  // namespace plugbench
