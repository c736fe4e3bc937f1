// cell_request.cpp: cell requests on the worker channel.
#include "cells/cell_request.hpp"

#include "measure/cell_identity.hpp"

#include <stdexcept>

namespace plugbench {
namespace {

nlohmann::json to_json(const RunSettings& settings) {
  return {{"cache", to_string(settings.cache)},
          {"host_memory", to_string(settings.host_memory)},
          {"repetitions",
           settings.repetitions ? nlohmann::json(*settings.repetitions) : nlohmann::json(nullptr)},
          {"min_time", settings.min_time},
          {"warmup", settings.warmup},
          {"cell_budget", settings.cell_budget},
          {"throttle_threshold", settings.throttle_threshold}};
}

RunSettings run_settings_from_json(const nlohmann::json& j) {
  RunSettings settings;
  const std::string cache = j.at("cache").get<std::string>();
  const std::string host_memory = j.at("host_memory").get<std::string>();
  if (!value_named(kCacheModeNames, cache) || !value_named(kHostMemoryModeNames, host_memory)) {
    throw std::invalid_argument(
        "a cell request names an unknown cache or host-memory mode: " + cache + ", " + host_memory);
  }
  settings.cache = *value_named(kCacheModeNames, cache);
  settings.host_memory = *value_named(kHostMemoryModeNames, host_memory);
  if (!j.at("repetitions").is_null()) settings.repetitions = j["repetitions"].get<int>();
  settings.min_time = j.at("min_time").get<double>();
  settings.warmup = j.at("warmup").get<int>();
  settings.cell_budget = j.at("cell_budget").get<double>();
  settings.throttle_threshold = j.at("throttle_threshold").get<double>();
  return settings;
}

}  // namespace

nlohmann::json to_json(const CellRequest& request) {
  return {{"workload", request.workload},
          {"distribution", request.distribution},
          {"n", request.shape.n},
          {"width", request.shape.width},
          {"height", request.shape.height},
          {"variant", request.variant},
          {"settings", to_json(request.settings)}};
}

CellRequest cell_request_from_json(const nlohmann::json& j) {
  CellRequest request;
  request.workload = j.at("workload").get<std::string>();
  request.distribution = j.at("distribution").get<std::string>();
  request.shape.n = j.at("n").get<std::uint64_t>();
  request.shape.width = j.at("width").get<std::uint64_t>();
  request.shape.height = j.at("height").get<std::uint64_t>();
  request.variant = j.at("variant").get<std::string>();
  request.settings = run_settings_from_json(j.at("settings"));
  return request;
}

CellResult unrun_cell(const PluginRecord& plugin, const CellRequest& request,
                      const std::string& status, const std::string& message) {
  return unrun_cell(plugin, request.workload, request.variant, request.distribution, request.shape,
                    status, message);
}

}  // namespace plugbench
