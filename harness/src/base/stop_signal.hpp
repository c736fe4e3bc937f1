// stop_signal.hpp: SIGINT / SIGTERM stop a run: the workers are stopped, the cell in flight is
// dropped, and the cells finished so far are written. The handler also writes a byte into a pipe
// that a worker pool polls while a cell runs, so that a signal never waits for the cell's end.
#pragma once

namespace plugbench {

// Installs the handlers (a second signal ends the process at once, after killing the process groups
// registered below).
void install_stop_handlers();
// The process groups of live workers: a second signal, which ends the harness at once, kills them
// first, so that nothing a plugin forked outlives the harness. Up to 256 at a time.
void register_process_group(int group);
void forget_process_group(int group);
bool stop_requested();
// The signal that asked for the stop; 0 when none did.
int stop_signal_number();
// Readable once a stop was asked for; -1 when the pipe could not be made (a stop is then seen
// only between cells).
int stop_fd();

}  // namespace plugbench
