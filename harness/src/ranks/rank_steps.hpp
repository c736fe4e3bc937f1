// rank_steps.hpp: what a run of several ranks does beside measuring: check that every rank
// planned the same matrix, meet the other ranks (before each cell in lock-step, after each
// problem), and bring every rank's cells and facts to the root, which reports and writes them.
#pragma once

#include "measure/cell_result.hpp"
#include "plan/matrix.hpp"
#include "ranks/rank_group.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// One line per planned cell: problem, plugin, variant and how it is decided.
std::string plan_fingerprint(const Matrix& matrix);

// Empty when every rank planned what the root planned; else, on every rank, a message that names
// each rank that differs and the first cell where it does.
std::string plan_difference(RankGroup& ranks, const Matrix& matrix);

// The meeting points of the ranks. At each, every rank says whether it was told to stop (the
// signal's number; 0: go on) and all learn the largest, so that a signal that reached one rank
// stops them all at the same point. Each wait is bounded: a rank that never comes (its harness
// hung or died) ends the wait, with `lost()` set; from then on no meeting waits again.
class RankMeetings {
 public:
  // `cell_timeout_s`: the longest a cell may take (--timeout); 0: no limit.
  RankMeetings(RankGroup& ranks, bool lockstep, double cell_timeout_s);
  // Before a cell, in lock-step or where the ranks run the cell `together` (a distributed cell);
  // alone or with --mpi-sync none otherwise: `stop` itself.
  int before_cell(int stop, bool together = false);
  // Before a round of interleaved samples (interleaved_rounds.hpp), in lock-step: each rank also
  // says whether it has samples left (`more`), and `any_more` is whether any rank has; a rank
  // with none keeps meeting until no rank has any, so that every rank meets as often. The wait is
  // bounded by --timeout for each of the `steps` a round may take (its cells' samples, and their
  // reopening after a crash). Alone or with --mpi-sync none: `stop` itself, any_more = more.
  int before_round(int stop, bool more, bool& any_more, std::size_t steps);
  // After a problem whose slowest rank ran `cells_run` cells since the last meeting.
  int after_problem(int stop, std::size_t cells_run);
  // Before every rank's facts are gathered; `timeout_s` bounds what the others may still be
  // doing (calibrating, say).
  int before_gather(int stop, double timeout_s);
  bool lost() const { return lost_; }
  bool lockstep() const { return lockstep_ && !ranks_.alone(); }

 private:
  int meet(int stop, double timeout_s, const std::string& where);

  RankGroup& ranks_;
  bool lockstep_;
  double cell_timeout_s_;
  bool lost_ = false;
};

// Every rank's cells at the root (each with its rank), in rank order; empty elsewhere.
std::vector<CellResult> gather_cells(RankGroup& ranks, const std::vector<CellResult>& cells);

// Every rank's facts at the root, as an array in rank order; null elsewhere.
nlohmann::json gather_facts(RankGroup& ranks, const nlohmann::json& facts);

}  // namespace plugbench
