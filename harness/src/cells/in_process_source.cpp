// in_process_source.cpp: cells measured on sessions in the harness's own process.
#include "cells/in_process_source.hpp"

#include "base/stdout_diversion.hpp"

namespace plugbench {

InProcessSource::InProcessSource(int device, bool calibrate, FactsCallback on_facts)
    : device_(device), calibrate_(calibrate), on_facts_(std::move(on_facts)) {}

InProcessSource::~InProcessSource() {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();  // what plugins say on closing
  open_cells_.clear();
  sessions_.clear();
}

InProcessSource::Entry& InProcessSource::session_of(const PluginRecord& plugin) {
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
  return it->second;
}

std::optional<CellResult> InProcessSource::run(const PluginRecord& plugin,
                                               const CellRequest& request) {
  // Nothing in this process can take a cell's output apart from the harness's: what the plugin
  // prints goes to stderr as it is written, out of the tables (docs/fault-isolation.md).
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();
  Entry& entry = session_of(plugin);
  if (!entry.cells) return unrun_cell(plugin, request, CellStatus::unavailable, entry.why);
  return entry.cells->run(request);
}

CellStep InProcessSource::open(const PluginRecord& plugin, const CellRequest& request, int id) {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();
  CellStep step;
  Entry& entry = session_of(plugin);
  if (!entry.cells) {
    step.done = unrun_cell(plugin, request, CellStatus::unavailable, entry.why);
    return step;
  }
  std::variant<CellResult, std::unique_ptr<OpenCell>> opened = entry.cells->open(request);
  if (CellResult* decided = std::get_if<CellResult>(&opened)) {
    step.done = std::move(*decided);
    return step;
  }
  std::unique_ptr<OpenCell>& cell = std::get<std::unique_ptr<OpenCell>>(opened);
  if (!cell->wants_sample()) {
    step.done = cell->finish();
    return step;
  }
  step.samples_wanted = cell->repetitions() - cell->samples_taken();
  step.host_pattern = cell->host_pattern();
  open_cells_[id] = std::move(cell);
  return step;
}

CellStep InProcessSource::sample(int id) {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();
  auto it = open_cells_.find(id);
  if (it == open_cells_.end()) return missing_cell(id);
  CellStep step;
  step.sample_ms = it->second->take_sample();
  it->second->pause();
  if (!step.sample_ms) {  // a call ended the cell
    step.done = it->second->finish();
    open_cells_.erase(it);
    return step;
  }
  step.samples_wanted = it->second->repetitions() - it->second->samples_taken();
  return step;
}

CellStep InProcessSource::finish(int id) {
  const StdoutDiversion diverted = StdoutDiversion::to_stderr();
  auto it = open_cells_.find(id);
  if (it == open_cells_.end()) return missing_cell(id);
  CellStep step;
  step.done = it->second->finish();
  open_cells_.erase(it);
  return step;
}

}  // namespace plugbench
