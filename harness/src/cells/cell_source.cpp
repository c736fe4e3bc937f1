// cell_source.cpp: the source an isolation mode names.
#include "cells/cell_source.hpp"

#include "cells/in_process_source.hpp"
#include "cells/problem_store.hpp"
#include "cells/worker_pool.hpp"

#include <stdexcept>
#include <string>

namespace plugbench {

CellStep CellSource::missing_cell(int id) {
  throw std::logic_error("the harness asked for a step of cell " + std::to_string(id) +
                         ", which is not open");
}

std::unique_ptr<CellSource> make_cell_source(const IsolationSettings& settings, int stop_fd,
                                             FactsCallback on_facts) {
  if (settings.mode == IsolationMode::none) {
    return std::make_unique<InProcessSource>(settings.device, settings.calibrate,
                                             std::move(on_facts));
  }
  remove_abandoned_problem_stores();
  return std::make_unique<WorkerPool>(settings, stop_fd, std::move(on_facts));
}

}  // namespace plugbench
