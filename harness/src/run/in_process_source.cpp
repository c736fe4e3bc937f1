// in_process_source.cpp: cells measured on sessions in the harness's own process.
#include "run/in_process_source.hpp"

#include "isolate/stdout_diversion.hpp"

namespace plugbench {

InProcessSource::InProcessSource(int device, bool calibrate, FactsCallback on_facts)
    : device_(device), calibrate_(calibrate), on_facts_(std::move(on_facts)) {}

InProcessSource::~InProcessSource() {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();  // what plugins say on closing
  sessions_.clear();
}

std::optional<CellResult> InProcessSource::run(const PluginRecord& plugin,
                                               const CellRequest& request) {
  // Nothing in this process can take a cell's output apart from the harness's: what the plugin
  // prints goes to stderr as it is written, out of the tables (docs/fault-isolation.md).
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();
  auto it = sessions_.find(plugin.name);
  if (it == sessions_.end()) {
    Entry entry;
    try {
      entry.cells = std::make_unique<SessionCells>(plugin, device_, problems_);
      on_facts_(plugin, entry.cells->facts(calibrate_));
    } catch (const PluginCallError& e) {
      entry.why = e.what();
    }
    it = sessions_.emplace(plugin.name, std::move(entry)).first;
  }
  if (!it->second.cells) return unrun_cell(plugin, request, status::unavailable, it->second.why);
  return it->second.cells->run(request);
}

}  // namespace plugbench
