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

}  // namespace plugbench
