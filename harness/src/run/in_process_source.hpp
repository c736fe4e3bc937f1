// in_process_source.hpp: --isolation none: sessions opened in the harness itself, once per plugin
// on first use and kept for the whole run; one problem cache shared by all plugins. A debugger
// sees the kernels; a crash ends the harness. What a plugin prints to stdout goes to stderr
// (not captured per cell as a worker's is).
#pragma once

#include "run/cell_source.hpp"

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
  void problem_done() override {}  // the cache keeps one problem, replaced by the next

 private:
  struct Entry {
    std::unique_ptr<SessionCells> cells;
    std::string why;  // the session did not open
  };
  int device_;
  bool calibrate_;
  FactsCallback on_facts_;
  ProblemCache problems_;
  std::map<std::string, Entry> sessions_;
};

}  // namespace plugbench
