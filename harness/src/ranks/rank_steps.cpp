// rank_steps.cpp: plan checks, meetings and gathering for a run of several ranks.
#include "ranks/rank_steps.hpp"

#include "base/stop_signal.hpp"
#include "results/results_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace plugbench {
namespace {

// A wait for the other ranks allows this long past the longest cell they may be in.
constexpr double kMeetingSlack_s = 60;

// How long rank 0, told to stop, still waits for the others: a third of the launcher's time
// between its SIGTERM and its SIGKILL (Open MPI's odls_base_sigkill_timeout, which `mpirun --mca`
// hands the ranks as OMPI_MCA_odls_base_sigkill_timeout; 1 s by default), so that the file is
// written in time: 0.33 s by default, 10 s with 30.
double hurried_wait_s() {
  double grace_s = 1;
  if (const char* text = std::getenv("OMPI_MCA_odls_base_sigkill_timeout")) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end != text && std::isfinite(value) && value > 0) grace_s = value;
  }
  return std::max(0.3, grace_s / 3);
}

}  // namespace

std::string plan_fingerprint(const Matrix& matrix) {
  std::string text;
  for (const PlannedProblem& problem : matrix.problems) {
    const ProblemSpec& spec = problem.spec;
    for (const PlannedCell& cell : problem.cells) {
      text += spec.workload->name() + " " + spec.distribution +
              " n=" + std::to_string(spec.shape.n) + " " + cell.plugin->name + "/" +
              (cell.kernel ? cell.kernel->variant : "") +
              (cell.to_run() ? "" : " (" + std::string(to_string(*cell.status)) + ")") + "\n";
    }
  }
  return text;
}

std::string plan_difference(RankGroup& ranks, const Matrix& matrix) {
  std::vector<std::string> plans = ranks.gather(plan_fingerprint(matrix));
  std::string difference;
  for (std::size_t r = 1; r < plans.size(); ++r) {
    if (plans[r] == plans[0]) continue;
    std::istringstream mine(plans[r]), root(plans[0]);
    std::string mine_line, root_line;
    while (true) {
      const bool more_mine = static_cast<bool>(std::getline(mine, mine_line));
      const bool more_root = static_cast<bool>(std::getline(root, root_line));
      if (!more_mine) mine_line = "(nothing)";
      if (!more_root) root_line = "(nothing)";
      if (mine_line != root_line || !more_mine || !more_root) break;
    }
    difference += "rank " + std::to_string(r) + " plans '" + mine_line + "' where rank 0 plans '" +
                  root_line + "'\n";
  }
  return ranks.broadcast(difference);
}

RankMeetings::RankMeetings(RankGroup& ranks, bool lockstep, double cell_timeout_s)
    : ranks_(ranks), lockstep_(lockstep), cell_timeout_s_(cell_timeout_s) {}

int RankMeetings::meet(int stop, double timeout_s, const std::string& where) {
  if (ranks_.alone() || lost_) return stop;
  // The root gives up first, so that it can still write what it has before the job ends.
  const double wait_s = timeout_s <= 0 ? 0 : ranks_.is_root() ? timeout_s : 1.5 * timeout_s + 30;
  // A root told to stop waits briefly: when a rank dies, the launcher stops every other one and
  // kills it soon after, and the root must write the finished cells first. The other ranks do not
  // hurry: one that gives up ends the job (abort_job), the root with it.
  const bool root = ranks_.is_root();
  const auto hurry = [root] { return root && stop_signal_number() != 0; };
  static const double hurried_s = hurried_wait_s();
  if (std::optional<int> agreed = ranks_.agree_max(stop, wait_s, hurry, hurried_s)) {
    return *agreed;
  }
  if (hurry()) {
    std::cerr << "harness: rank 0 was told to stop (signal " << stop_signal_number()
              << ") and the other ranks did not meet it " << where << " within " << hurried_s
              << " s: a rank may have died (the launcher then stops every other one)\n";
  } else {
    std::cerr << "harness: rank " << ranks_.place().rank << " waited " << wait_s
              << " s for the other ranks " << where
              << "; one of them is stuck or gone (see its messages above)\n";
  }
  lost_ = true;
  if (!ranks_.is_root()) ranks_.abort_job(3);
  return stop;
}

int RankMeetings::before_cell(int stop, bool together) {
  if (!lockstep() && !together) return stop;
  return meet(stop, cell_timeout_s_ > 0 ? cell_timeout_s_ + kMeetingSlack_s : 0, "before a cell");
}

int RankMeetings::before_round(int stop, bool more, bool& any_more, std::size_t steps) {
  any_more = more;
  if (!lockstep() || lost_) return stop;
  // One number carries both: the largest 2 stop + more is the largest stop, and where no rank
  // stops, whether any has more.
  const double wait_s =
      cell_timeout_s_ > 0
          ? static_cast<double>(std::max<std::size_t>(steps, 1)) * cell_timeout_s_ + kMeetingSlack_s
          : 0;
  const int agreed = meet(2 * stop + (more ? 1 : 0), wait_s, "before a round");
  if (lost_) return stop;
  any_more = agreed % 2 == 1;
  return agreed / 2;
}

int RankMeetings::after_problem(int stop, std::size_t cells_run) {
  const double timeout_s =
      cell_timeout_s_ > 0
          // In lock-step too: a problem in rounds finishes all its cells after the last meeting.
          ? static_cast<double>(std::max<std::size_t>(cells_run, 1)) * cell_timeout_s_ +
                kMeetingSlack_s
          : 0;
  return meet(stop, timeout_s, "at the end of a problem");
}

int RankMeetings::before_gather(int stop, double timeout_s) {
  return meet(stop, timeout_s, "before gathering");
}

std::vector<CellResult> gather_cells(RankGroup& ranks, const std::vector<CellResult>& cells) {
  if (ranks.alone()) return cells;
  nlohmann::json mine = nlohmann::json::array();
  for (const CellResult& cell : cells) mine.push_back(to_json(cell));
  std::vector<CellResult> all;
  std::vector<std::string> texts = ranks.gather(mine.dump());
  for (std::size_t r = 0; r < texts.size(); ++r) {
    for (const nlohmann::json& entry : nlohmann::json::parse(texts[r])) {
      all.push_back(cell_from_json(entry));
      all.back().rank = static_cast<int>(r);
    }
  }
  return all;
}

nlohmann::json gather_facts(RankGroup& ranks, const nlohmann::json& facts) {
  std::vector<std::string> texts = ranks.gather(facts.dump());
  if (!ranks.is_root()) return nullptr;
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& text : texts) all.push_back(nlohmann::json::parse(text));
  return all;
}

}  // namespace plugbench
