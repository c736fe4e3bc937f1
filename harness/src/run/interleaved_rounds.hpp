// interleaved_rounds.hpp: a problem's cells measured in interleaved rounds (docs/measurement.md):
// every cell opened first (buffers, the checked call, warm-up), then round after round one sample
// of each cell that still wants one, with a pass of each host reference loop its cells are held
// to, in a fresh random order each round; then every cell finished. Each cell's samples so span
// the same minutes as its neighbours', and a ratio of two cells (a speedup, % of peak) can be
// taken round by round, on samples seconds apart in the same state of a shared machine.
#pragma once

#include "cells/cell_source.hpp"
#include "measure/calibration.hpp"
#include "measure/own_threads_quiet.hpp"
#include "plan/matrix.hpp"
#include "ranks/rank_steps.hpp"
#include "run/progress.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace plugbench {

// The rounds' random order: seeded once per run (the seed is recorded), drawn from for every
// problem.
using RoundOrder = std::mt19937_64;

// The problem's cells in the planned order, decided ones included. Stops early (returning the
// cells decided so far) when this rank or (lock-step) another was told to stop; the open cells are
// then dropped. `stop`: the signal that stopped a rank (0: none). `reference` may be null (no
// host reference loop: the cells get no per-round % of peak). Before each reference pass the
// rounds wait for the harness's own threads to go quiet, tallied in `quiet`.
std::vector<CellResult> measure_in_rounds(const PlannedProblem& planned, CellSource& source,
                                          const RunSettings& settings, Progress& progress,
                                          RankMeetings& meetings, int& stop, RoundOrder& order,
                                          const HostReference* reference, QuietTally& quiet);

}  // namespace plugbench
