// cell_identity.cpp: a cell's names, and a cell decided without running.
#include "measure/cell_identity.hpp"

namespace plugbench {

CellResult named_cell(const PluginRecord& plugin, const std::string& workload,
                      const std::string& variant, const std::string& distribution,
                      const Shape& shape) {
  CellResult cell;
  cell.workload = workload;
  cell.plugin = plugin.name;
  cell.variant = variant;
  cell.distribution = distribution;
  cell.shape = shape;
  cell.memory_space = plugin.memory_space;
  if (const KernelRecord* kernel = plugin.find_kernel(workload, variant)) {
    cell.flags = kernel->flags;
  }
  return cell;
}

CellResult unrun_cell(const PluginRecord& plugin, const std::string& workload,
                      const std::string& variant, const std::string& distribution,
                      const Shape& shape, CellStatus status, const std::string& message) {
  CellResult cell = named_cell(plugin, workload, variant, distribution, shape);
  cell.status = status;
  cell.message = message;
  return cell;
}

}  // namespace plugbench
