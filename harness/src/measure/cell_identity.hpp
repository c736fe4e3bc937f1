// cell_identity.hpp: a cell's names (workload, plugin, variant, distribution, shape, memory space,
// flags) filled in one place, for the cells that run and for those decided without running.
#pragma once

#include "load/plugin_loader.hpp"
#include "measure/cell_result.hpp"

#include <string>

namespace plugbench {

// A cell of `plugin`'s kernel workload/variant on a problem, with nothing measured yet.
CellResult named_cell(const PluginRecord& plugin, const std::string& workload,
                      const std::string& variant, const std::string& distribution,
                      const Shape& shape);

// The same cell, decided without a measurement: `status` and why.
CellResult unrun_cell(const PluginRecord& plugin, const std::string& workload,
                      const std::string& variant, const std::string& distribution,
                      const Shape& shape, CellStatus status, const std::string& message);

}  // namespace plugbench
