// in_process_source.hpp: --isolation none: sessions opened in the harness itself, once per plugin
// on first use and kept for the whole run; one problem cache shared by all plugins. A debugger
// sees the kernels; a crash ends the harness. What a plugin prints to stdout goes to stderr
// (not captured per cell as a worker's is).
#pragma once

#include "cells/cell_source.hpp"

#include <map>
#include <memory>
#include <string>

namespace plugbench {

class InProcessSource : public CellSource {
 public:
  InProcessSource(int device, bool calibrate, FactsCallback on_facts);
  ~InProcessSource() override;
  InProcessSource(const InProcessSource&) = delete;
  InProcessSource& operator=(const InProcessSource&) = delete;
  std::optional<CellResult> run(const PluginRecord& plugin, const CellRequest& request) override;
  CellStep open(const PluginRecord& plugin, const CellRequest& request, int id) override;
  CellStep sample(int id) override;
  CellStep finish(int id) override;
  // The cache keeps one problem, replaced by the next; the cells still open on it go.
  void problem_done() override { open_cells_.clear(); }

 private:
  struct Entry {
    std::unique_ptr<SessionCells> cells;
    std::string why;  // the session did not open
  };
  // The plugin's session, opened on first use.
  Entry& session_of(const PluginRecord& plugin);

  int device_;
  bool calibrate_;
  FactsCallback on_facts_;
  ProblemCache problems_;
  std::map<std::string, Entry> sessions_;
  std::map<int, std::unique_ptr<OpenCell>> open_cells_;
};

}  // namespace plugbench
