// isolation_settings.hpp: where and under what limits a plugin's cells run
// (docs/fault-isolation.md): in worker processes or in the harness itself, on which device, for how
// long at most, how often a worker is replaced. The command line's --isolation, --device,
// --timeout, --max-restarts and
// --plugin-output-to-stderr; each default is written here only.
#pragma once

#include "measure/run_settings.hpp"

namespace plugbench {

struct IsolationSettings {
  IsolationMode mode = IsolationMode::process;
  int device = 0;
  double timeout_s = 300;  // per cell (process isolation); 0: no limit
  int max_restarts = 3;    // worker replacements per plugin after crashes and timeouts
  // Copy what workers write to the harness's stderr as it comes (sanitizer reports), besides
  // keeping each cell's share; otherwise it reaches the user only through the cells.
  bool output_to_stderr = false;
  bool calibrate = true;  // measure a device plugin's peak when its first session opens
  // Opening a session (starting the worker, loading the plugin, creating a CUDA context,
  // calibrating the device) may take longer than a short --timeout allows a cell: it gets at least
  // this long, so a small --timeout does not fail the first cell of every plugin.
  double open_floor_s = 60;
  double grace_s = 2;  // between SIGTERM and SIGKILL
};

}  // namespace plugbench
