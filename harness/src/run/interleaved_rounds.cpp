// interleaved_rounds.cpp: opening a problem's cells, their rounds in random order with the host
// reference loops beside them, and finishing them.
#include "run/interleaved_rounds.hpp"

#include "base/stop_signal.hpp"
#include "measure/machine_load.hpp"
#include "measure/own_threads_quiet.hpp"
#include "plan/sizes.hpp"
#include "run/matrix_run.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

namespace plugbench {
namespace {

// A problem's cell as the rounds see it.
struct Slot {
  const PlannedCell* planned = nullptr;
  std::optional<CellResult> result;
  bool open = false;
  bool apart = false;  // to be measured after the others: its opening beside them ran out of memory
  int wanted = 0;      // samples still to take
  std::optional<MemoryPattern> pattern;
  SampleRounds rounds;
};

// One thing a round does: a sample of a cell, or a pass of a reference loop.
struct RoundEntry {
  std::size_t cell = 0;
  std::optional<MemoryPattern> reference;  // set: a pass of this loop, not a cell
};

// The entries of the next round: every open cell that wants a sample, and a pass of each
// reference loop those cells are held to.
std::vector<RoundEntry> next_round(const std::vector<Slot>& slots, const HostReference* reference) {
  std::vector<RoundEntry> entries;
  std::vector<MemoryPattern> patterns;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i].open || slots[i].wanted <= 0) continue;
    entries.push_back({i, std::nullopt});
    const std::optional<MemoryPattern>& pattern = slots[i].pattern;
    if (reference && pattern && reference->has(*pattern) &&
        std::find(patterns.begin(), patterns.end(), *pattern) == patterns.end()) {
      patterns.push_back(*pattern);
    }
  }
  if (entries.empty()) return entries;
  for (MemoryPattern pattern : patterns) entries.push_back({0, pattern});
  return entries;
}

}  // namespace

std::vector<CellResult> measure_in_rounds(const PlannedProblem& planned, CellSource& source,
                                          const RunSettings& settings, Progress& progress,
                                          RankMeetings& meetings, int& stop, RoundOrder& order,
                                          const HostReference* reference, QuietTally& quiet) {
  const ProblemSpec& spec = planned.spec;
  const std::string label =
      spec.workload->name() + " n=" + describe_count(spec.shape.n) + " " + spec.distribution;
  std::vector<Slot> slots(planned.cells.size());
  std::size_t to_run = 0;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    slots[i].planned = &planned.cells[i];
    to_run += planned.cells[i].to_run() ? 1 : 0;
  }
  std::string cells_text = std::to_string(to_run) + " cells in rounds";
  if (to_run == 1) {
    for (const PlannedCell& cell : planned.cells) {
      if (cell.to_run()) cells_text = cell.plugin->name + "/" + cell.kernel->variant;
    }
  }
  progress.start_cells(label + "  " + cells_text, to_run);
  const std::optional<CpuTimes> before = cpu_times_now();
  // A step that found the run told to stop sets `stop`; no source is asked anything more, and
  // every rank learns of it at the next meeting (lock-step: before each cell's opening, before
  // each round and before the finishing), which ends this problem: `halted`.
  bool halted = false;
  const auto meet = [&] {
    stop = meetings.before_cell(std::max(stop, stop_signal_number()));
    halted = stop != 0 || meetings.lost();
    return !halted;
  };
  const auto take = [&](Slot& slot, CellStep step) {
    if (step.stopped) {
      stop = std::max(stop_signal_number(), 1);
    } else if (step.done) {
      slot.result = std::move(step.done);
      slot.open = false;
    } else {
      slot.wanted = step.samples_wanted;
    }
  };

  const auto open = [&](std::size_t i, const std::string& how) {
    Slot& slot = slots[i];
    progress.update(label + "  opening " + slot.planned->plugin->name + "/" +
                    slot.planned->kernel->variant + how);
    slot.open = true;
    CellStep step = source.open(*slot.planned->plugin, request_for(spec, *slot.planned, settings),
                                static_cast<int>(i));
    slot.pattern = step.host_pattern;
    take(slot, std::move(step));
  };
  // Whether another open cell holds memory of the space `slot`'s plugin allocates in (a host
  // cell holds no device memory, so a device cell out of memory beside it would be so alone too).
  const auto open_in_its_memory = [&](const Slot& slot) {
    const MemorySpace space = slot.planned->plugin->memory_space;
    return std::any_of(slots.begin(), slots.end(), [&](const Slot& other) {
      return other.open && other.planned->plugin->memory_space == space;
    });
  };

  for (std::size_t i = 0; i < slots.size() && !halted; ++i) {
    Slot& slot = slots[i];
    if (!slot.planned->to_run()) {
      slot.result = decided_cell(spec, *slot.planned);
      continue;
    }
    if (!meet() || stop != 0) continue;
    const bool beside_others = open_in_its_memory(slot);
    open(i, "");
    // A cell that does not fit beside the problem's other open cells (each holds its buffers until
    // it is finished) may fit alone: it is measured after them, in rounds of its own. Not where
    // the ranks meet before every cell (--mpi-sync lockstep), whose meetings would then differ.
    if (beside_others && slot.result && slot.result->status == CellStatus::oom &&
        !meetings.lockstep()) {
      slot.result.reset();
      slot.apart = true;
    }
  }

  // Each round's pass of each reference loop, by the round's number over the whole problem.
  std::vector<std::map<MemoryPattern, double>> reference_ms;
  std::map<MemoryPattern, HostReferencePass> reference_loops;
  // The rounds of the open cells until each has its samples, then their finishing.
  const auto rounds_of_open_cells = [&] {
    while (!halted) {
      const int round = static_cast<int>(reference_ms.size());
      std::vector<RoundEntry> entries = next_round(slots, reference);
      bool any_more = false;
      // A round may take a sample and a reopening of each cell.
      stop = meetings.before_round(std::max(stop, stop_signal_number()), !entries.empty(), any_more,
                                   2 * slots.size());
      halted = stop != 0 || meetings.lost();
      if (halted || !any_more) break;
      reference_ms.emplace_back();
      if (entries.empty()) continue;  // another rank still samples: meet it again
      std::shuffle(entries.begin(), entries.end(), order);
      int rounds_left = 0;
      for (const Slot& slot : slots)
        rounds_left = std::max(rounds_left, slot.open ? slot.wanted : 0);
      progress.update(label + "  round " + std::to_string(round + 1) + " of " +
                      std::to_string(round + rounds_left));
      // A signal ends the round at once (the next meeting tells the other ranks): a rank stopped by
      // its launcher has about a second left.
      for (std::size_t position = 0;
           position < entries.size() && stop == 0 && stop_signal_number() == 0; ++position) {
        const RoundEntry& entry = entries[position];
        if (entry.reference) {
          // The pass starts at once, where a sample starts after its flush or its team's wake-up:
          // the team of the step before may still spin beside it.
          wait_until_own_threads_quiet(quiet);
          HostReferencePass pass = reference->pass(*entry.reference);
          reference_ms.back()[*entry.reference] = pass.ms;
          reference_loops.emplace(*entry.reference, pass);
          continue;
        }
        Slot& slot = slots[entry.cell];
        CellStep step = source.sample(static_cast<int>(entry.cell));
        if (step.sample_ms) {
          slot.rounds.round.push_back(round);
          slot.rounds.position.push_back(static_cast<int>(position));
        }
        take(slot, std::move(step));
      }
    }
    if (!halted && meet()) {
      for (std::size_t i = 0; i < slots.size() && stop == 0; ++i) {
        if (slots[i].open) take(slots[i], source.finish(static_cast<int>(i)));
      }
    }
  };
  rounds_of_open_cells();
  for (std::size_t i = 0; i < slots.size() && !halted && stop == 0; ++i) {
    if (!slots[i].apart || !meet()) continue;
    open(i, " (alone: it did not fit beside the others)");
    rounds_of_open_cells();
  }
  const bool stopped = halted || stop != 0;

  std::optional<MachineLoad> load;
  if (before) {
    if (const std::optional<CpuTimes> after = cpu_times_now()) {
      load = load_between(*before, *after, load_average_now());
    }
  }
  std::vector<CellResult> cells;
  for (Slot& slot : slots) {
    if (!slot.result || (stopped && slot.open)) continue;  // dropped: open when the run stopped
    CellResult& cell = *slot.result;
    if (slot.planned->to_run()) cell.machine_load = load;
    // The rounds are the samples' only where the cell kept every sample the rounds saw.
    if (cell.kernel && cell.kernel->samples_ms.size() == slot.rounds.round.size() &&
        !slot.rounds.round.empty()) {
      SampleRounds rounds = std::move(slot.rounds);
      rounds.apart = slot.apart;
      if (slot.pattern && reference_loops.count(*slot.pattern)) {
        const HostReferencePass& loop = reference_loops.at(*slot.pattern);
        rounds.reference_pattern = loop.pattern;
        rounds.reference_loop = loop.loop;
        rounds.reference_bytes_moved = loop.bytes_moved;
        for (int round : rounds.round) {
          const auto& passes = reference_ms[static_cast<std::size_t>(round)];
          const auto pass = passes.find(*slot.pattern);
          rounds.reference_ms.push_back(pass != passes.end() ? pass->second : std::nan(""));
        }
      }
      cell.rounds = std::move(rounds);
    }
    cells.push_back(std::move(cell));
  }
  if (!stopped) progress.finish_cells();
  source.problem_done();
  for (CellResult& cell : cells) cell.size_text = spec.size_text;
  return cells;
}

}  // namespace plugbench
