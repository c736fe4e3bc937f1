// stop_signal.hpp: SIGINT / SIGTERM stop a run: the workers are stopped, the cell in flight is
// dropped, and the cells finished so far are written. The handler also writes a byte into a pipe
// that a worker pool polls while a cell runs, so that a signal never waits for the cell's end.
#pragma once

namespace plugbench {

// Installs the handlers (a second signal ends the process at once).
void install_stop_handlers();
bool stop_requested();
// The signal that asked for the stop; 0 when none did.
int stop_signal_number();
// Readable once a stop was asked for; -1 when the pipe could not be made (a stop is then seen
// only between cells).
int stop_fd();

}  // namespace plugbench
