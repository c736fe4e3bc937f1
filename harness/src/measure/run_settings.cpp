// run_settings.cpp: the modes as text, one spelling each.
#include "measure/run_settings.hpp"

namespace plugbench {

const char* to_string(CacheMode mode) {
  return mode == CacheMode::cold ? "cold" : "warm";
}

const char* to_string(HostMemoryMode mode) {
  switch (mode) {
    case HostMemoryMode::pageable:
      return "pageable";
    case HostMemoryMode::pinned:
      return "pinned";
    case HostMemoryMode::both:
      break;
  }
  return "both";
}

const char* to_string(IsolationMode mode) {
  return mode == IsolationMode::process ? "process" : "none";
}

const char* to_string(Scaling scaling) {
  return scaling == Scaling::weak ? "weak" : "strong";
}

const char* to_string(MpiStaging staging) {
  switch (staging) {
    case MpiStaging::host:
      return "host";
    case MpiStaging::direct:
      return "direct";
    case MpiStaging::automatic:
      break;
  }
  return "auto";
}

const char* to_string(MeasurementOrder order) {
  return order == MeasurementOrder::interleaved ? "interleaved" : "sequential";
}

std::optional<CacheMode> cache_mode_named(const std::string& text) {
  if (text == "cold") return CacheMode::cold;
  if (text == "warm") return CacheMode::warm;
  return std::nullopt;
}

std::optional<HostMemoryMode> host_memory_mode_named(const std::string& text) {
  if (text == "pageable") return HostMemoryMode::pageable;
  if (text == "pinned") return HostMemoryMode::pinned;
  if (text == "both") return HostMemoryMode::both;
  return std::nullopt;
}

std::optional<IsolationMode> isolation_mode_named(const std::string& text) {
  if (text == "process") return IsolationMode::process;
  if (text == "none") return IsolationMode::none;
  return std::nullopt;
}

std::optional<Scaling> scaling_named(const std::string& text) {
  if (text == "weak") return Scaling::weak;
  if (text == "strong") return Scaling::strong;
  return std::nullopt;
}

std::optional<MpiStaging> mpi_staging_named(const std::string& text) {
  if (text == "auto") return MpiStaging::automatic;
  if (text == "host") return MpiStaging::host;
  if (text == "direct") return MpiStaging::direct;
  return std::nullopt;
}

std::optional<MeasurementOrder> measurement_order_named(const std::string& text) {
  if (text == "interleaved") return MeasurementOrder::interleaved;
  if (text == "sequential") return MeasurementOrder::sequential;
  return std::nullopt;
}

}  // namespace plugbench
