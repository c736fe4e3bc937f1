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

// The meeting points of the ranks. Each wait is bounded: a rank that never comes (its harness
// hung or died) ends the wait, with `lost()` set.
class RankMeetings {
 public:
  // `cell_timeout_s`: the longest a cell may take (--timeout); 0: no limit.
  RankMeetings(RankGroup& ranks, bool lockstep, double cell_timeout_s);
  // Before a cell, in lock-step: whether every rank goes on (none was told to stop).
  bool before_cell(bool go);
  // After a problem whose slowest rank ran `cells_run` cells since the last meeting.
  bool after_problem(bool go, std::size_t cells_run);
  bool lost() const { return lost_; }
  bool lockstep() const { return lockstep_ && !ranks_.alone(); }

 private:
  bool meet(bool go, double timeout_s, const std::string& where);

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
