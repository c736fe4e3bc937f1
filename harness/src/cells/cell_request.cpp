// cell_request.cpp: cell requests on the worker channel.
#include "cells/cell_request.hpp"

#include "measure/cell_identity.hpp"

#include <stdexcept>

namespace plugbench {
namespace {

// Every field of kRunSettingFields: a missing key throws nlohmann::json::exception, a value that is
// none of its field's std::invalid_argument.
RunSettings run_settings_from_json(const nlohmann::json& j) {
  RunSettings settings;
  for (const SettingField& field : kRunSettingFields) {
    const nlohmann::json& value = j.at(field.key);
    if (!field.read(value, settings)) {
      throw std::invalid_argument("a cell request's " + std::string(field.key) +
                                  " is none of its values: " + value.dump());
    }
  }
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

CellResult unrun_cell(const PluginRecord& plugin, const CellRequest& request, CellStatus status,
                      const std::string& message) {
  return unrun_cell(plugin, request.workload, request.variant, request.distribution, request.shape,
                    status, message);
}

}  // namespace plugbench
