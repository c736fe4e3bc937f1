// report_table.cpp: the per-problem results table (as a TextTable), the plugin listing and the
// dry-run matrix.
#include "analyze/report_table.hpp"

#include "base/safe_text.hpp"
#include "base/text_list.hpp"
#include "load/kernel_flags.hpp"
#include "measure/machine_load.hpp"
#include "plan/sizes.hpp"
#include "render/figure_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace {

std::string format_scientific(double value) {
  return number_text(value, "%.1e");
}

std::string verification_text(const CellResult& cell) {
  // A status this build does not know (another harness's, a hand edit) says nothing of what its
  // verification record means: the status is shown, not the record.
  if (!cell.status.known) return cell.status.unknown + " (a status this harness does not know)";
  if (!cell.verification) return to_string(cell.status);
  const Verification& v = *cell.verification;
  if (!v.passed) return "NO (" + v.error_measure + " " + format_scientific(v.error) + ")";
  if (v.tolerance == 0) return "yes (exact)";
  return "yes (" + format_scientific(v.error) + " <= " + format_scientific(v.tolerance) + ")";
}

std::optional<double> paired_median(const std::optional<PairedFigure>& figure) {
  return figure ? std::optional<double>(figure->median) : std::nullopt;
}

// "7.90..8.40" (no comma: a CSV field as it is); with fewer rounds than a 95 % interval needs,
// its own confidence after it: "1.80..2.10 (75%)".
std::string interval_text(const std::optional<PairedFigure>& figure, int decimals) {
  if (!figure || figure->pairs < 2) return "";
  std::string text = fixed_text(figure->low, decimals) + ".." + fixed_text(figure->high, decimals);
  if (figure->confidence < 0.95) text += " (" + fixed_text(100 * figure->confidence, 0) + "%)";
  return text;
}

std::string flags_text(std::uint32_t flags) {
  std::string text;
  for (const KernelFlagName& flag : kKernelFlagNames) {
    if ((flags & flag.bit) && flag.table_note != nullptr)
      text += " [" + std::string(flag.table_note) + "]";
  }
  return text;
}

}  // namespace

std::string shape_text(const Shape& shape) {
  if (shape.height > 1 && !shape.rectangular()) {
    const std::string count = describe_count(shape.n);
    return std::to_string(shape.n) + " (" +
           (count == std::to_string(shape.n) ? "" : count + " in ") + "rows of " +
           std::to_string(shape.width) + ")";
  }
  if (shape.height > 1) {
    return std::to_string(shape.width) + "x" + std::to_string(shape.height) + " (" +
           std::to_string(shape.n) + ")";
  }
  std::string count = describe_count(shape.n);
  return count == std::to_string(shape.n) ? count : std::to_string(shape.n) + " (" + count + ")";
}

TextTable problem_table(const std::string& workload, const std::string& distribution,
                        const Shape& shape, const std::vector<CellResult>& cells,
                        const std::string& baseline) {
  bool iterations =
      !cells.empty() && cells.front().traffic && !cells.front().traffic->work_unit.empty();
  TextTable table;
  table.title = workload + "  n = " + shape_text(shape) + "  distribution " + distribution;
  if (!cells.empty() && cells.front().traffic) {
    const Traffic& t = *cells.front().traffic;
    table.title += iterations ? "  work " + fixed_text(t.work, 0) + " " + t.work_unit
                              : "  traffic " + fixed_text(t.bytes() / 1048576.0, 1) + " MiB";
  }
  const char* rate_unit = iterations ? "Git/s" : "GB/s";
  // The rate's unit differs by workload: in CSV it is a column of its own, so one header fits all.
  table.context = {{"workload", workload},
                   {"n", std::to_string(shape.n)},
                   {"distribution", distribution},
                   {"rate_unit", rate_unit}};
  table.columns = {{"plugin", "plugin", true},    {"variant", "variant", true},
                   {"kernel ms", "kernel_ms"},    {"cv", "kernel_cv_percent"},
                   {"e2e ms", "end_to_end_ms"},   {"in ms", "copy_in_ms"},
                   {"out ms", "copy_out_ms"},     {rate_unit, "rate"},
                   {"%peak", "percent_of_peak"},  {"%ref", "percent_of_reference"},
                   {"speedup", "speedup"},        {"speedup 95% CI", "speedup_interval", true},
                   {"verified", "verified", true}};
  for (const CellResult& cell : cells) {
    TableRow row;
    row.cells = {cell.plugin, cell.variant};
    row.alert =
        cell.status == CellStatus::failed || cell.counts_as_error() || !cell.suspect.empty();
    if (!cell.kernel) {
      row.note = to_string(cell.status) + ": " + cell.message;
      table.rows.push_back(row);
      continue;
    }
    std::optional<double> in_ms, out_ms, rate;
    if (!cell.transfers.empty()) {
      in_ms = cell.transfers.front().copy_in.median_ms;
      out_ms = cell.transfers.front().copy_out.median_ms;
    }
    if (iterations) {
      if (cell.work_rate) rate = *cell.work_rate / 1e9;
    } else {
      rate = cell.gbps;
    }
    std::optional<double> end_to_end_ms;
    if (cell.end_to_end) end_to_end_ms = cell.end_to_end->median_ms;
    // One repetition has no spread: its cv of 0 would read as a perfectly steady time.
    const bool has_spread =
        std::max<std::size_t>(cell.kernel->repetitions, cell.kernel->samples_ms.size()) >= 2;
    row.cells.insert(
        row.cells.end(),
        {format_ms(cell.kernel->median_ms),
         has_spread ? fixed_text(100 * cell.kernel->cv, 1) + "%" : std::string(),
         format_ms(end_to_end_ms), format_ms(in_ms), format_ms(out_ms), format_rate(rate),
         format_number(cell.percent_of_peak, 1),
         format_number(paired_median(cell.paired_percent_of_peak), 1),
         format_number(cell.paired_speedup ? cell.paired_speedup->median : cell.speedup, 2),
         interval_text(cell.paired_speedup, 2),
         verification_text(cell) + flags_text(cell.flags) +
             (cell.suspect.empty() ? "" : " SUSPECT")});
    table.rows.push_back(row);
  }
  for (const CellResult& cell : cells) {
    if (!cell.suspect.empty()) {
      table.notes.push_back(cell.plugin + "/" + cell.variant + ": SUSPECT: " + cell.suspect);
    }
  }
  for (const CellResult& cell : cells) {
    if (!cell.rounds || !cell.rounds->apart) continue;
    // No round holds both this cell's sample and the baseline's: the speedups with it are not
    // paired, every other cell's too where it is the baseline.
    const std::string name = cell.plugin + "/" + cell.variant;
    const bool is_baseline = std::any_of(cells.begin(), cells.end(), [&](const CellResult& other) {
      return &other != &cell && other.baseline == name;
    });
    table.notes.push_back(name +
                          ": measured after the others, in rounds of its own: beside them it ran "
                          "out of memory; " +
                          (is_baseline ? "it is the baseline, so no speedup in this table is paired"
                                       : "its speedup is not paired"));
  }
  for (const CellResult& cell : cells) {
    if (cell.machine_load && cell.machine_load->busy) {
      table.notes.push_back(cell.plugin + "/" + cell.variant +
                            ": busy machine: " + describe(*cell.machine_load) +
                            " while it ran; its times may be the neighbours' too");
    }
  }
  for (const CellResult& cell : cells) {
    if (!cell.sampling) continue;
    const SamplingRecord& sampling = *cell.sampling;
    const std::string name = cell.plugin + "/" + cell.variant + ": ";
    if (sampling.dropped_throttled > 0 || sampling.kept_throttled > 0) {
      table.notes.push_back(
          name + std::to_string(sampling.dropped_throttled) + " samples dropped and retaken, " +
          std::to_string(sampling.kept_throttled) + " kept, with the SM clock below " +
          fixed_text(100 * sampling.throttle_threshold, 0) + " % of " +
          fixed_text(sampling.default_clock_mhz, 0) + " MHz (throttled)" +
          (sampling.clock_min_mhz
               ? "; slowest kept " + fixed_text(*sampling.clock_min_mhz, 0) + " MHz"
               : ""));
    }
    if (sampling.start == SampleStart::host_waited) {
      table.notes.push_back(name + "timed with the host's launch: " + start_text(sampling));
    }
  }
  for (const CellResult& cell : cells) {
    if (!cell.output) continue;
    // The plugin's own bytes: under the table, never in it (TableWriter escapes each line).
    const std::string who = cell.plugin + "/" + cell.variant;
    table.notes.push_back(who + ": the plugin wrote " + std::to_string(cell.output->bytes) +
                          " bytes to stdout/stderr" +
                          (cell.output->first_lines.empty() ? " (blank lines)" : "; the first:"));
    for (const std::string& line : cell.output->first_lines) {
      table.notes.push_back("  " + who + "> " + line);
    }
  }
  bool any_speedup = false;
  for (const CellResult& cell : cells) any_speedup = any_speedup || cell.speedup.has_value();
  if (!any_speedup) {
    table.notes.push_back("(no speedups: no verified " + baseline + " cell for this problem)");
  }
  return table;
}

std::string cell_summary(const std::vector<CellResult>& cells, std::size_t planned) {
  std::size_t ok = 0, failed = 0, errors = 0, crashed = 0, timed_out = 0, skipped = 0, other = 0,
              unknown = 0;
  for (const CellResult& cell : cells) {
    if (!cell.status.known)
      ++unknown;
    else if (cell.status == CellStatus::ok)
      ++ok;
    else if (cell.status == CellStatus::failed)
      ++failed;
    else if (cell.status == CellStatus::crashed)
      ++crashed;
    else if (cell.status == CellStatus::timeout)
      ++timed_out;
    else if (cell.status == CellStatus::skipped)
      ++skipped;
    else if (cell.counts_as_error())
      ++errors;
    else
      ++other;
  }
  const std::string of = planned > cells.size() ? " of " + std::to_string(planned) : std::string();
  return std::to_string(cells.size()) + of + " cells: " + std::to_string(ok) + " ok, " +
         std::to_string(failed) + " failed verification, " + std::to_string(errors) + " errors, " +
         std::to_string(crashed) + " crashed, " + std::to_string(timed_out) + " timed out, " +
         (skipped > 0 ? std::to_string(skipped) + " skipped after --max-restarts, " : "") +
         std::to_string(other) + " unavailable or unsupported" +
         (unknown > 0 ? ", " + std::to_string(unknown) + " of a status this harness does not know"
                      : std::string());
}

std::string busy_summary(const std::vector<CellResult>& cells) {
  std::size_t busy = 0;
  double most_others = 0, most_steal = 0;
  for (const CellResult& cell : cells) {
    if (!cell.machine_load || !cell.machine_load->busy) continue;
    ++busy;
    most_others = std::max(most_others, cell.machine_load->others_share);
    most_steal = std::max(most_steal, cell.machine_load->steal_share);
  }
  if (busy == 0) return "";
  const auto percent = [](double share) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f %%", 100 * share);
    return std::string(text);
  };
  // Name what made it busy: other processes, or the hypervisor's steal (a neighbour VM), or both;
  // a steal alone blamed on other processes ("up to 0 %") would send the user to the wrong place.
  std::vector<std::string> causes;
  if (most_others > kBusyOthersShare || most_steal <= kBusyStealShare) {
    causes.push_back("other processes used up to " + percent(most_others) + " of its CPUs");
  }
  if (most_steal > kBusyStealShare) {
    causes.push_back("the hypervisor took up to " + percent(most_steal) +
                     " of its CPU time for other machines (steal)");
  }
  // "N of M cells" is what an interrupted run's summary says: this line words its count apart.
  return "the machine was busy in " + std::to_string(busy) + (busy == 1 ? " cell" : " cells") +
         " of " + std::to_string(cells.size()) + " (" + join(causes, "; ") +
         "): their times may be the neighbours' too, and compare calls them too noisy\n";
}

void print_listing(std::ostream& out, const std::vector<PluginFolder>& folders,
                   const std::vector<PluginRecord>& plugins) {
  out << "plugin folders searched:\n";
  for (const PluginFolder& folder : folders) {
    out << "  " << folder.path << "  [" << folder.origin << "]\n";
  }
  out << "\nplugins:\n";
  if (plugins.empty()) out << "  none found\n";
  // A broken plugin's name is its file name, and the reason and version are the plugin's words:
  // shown with their control characters escaped. The name column is as wide as the longest name
  // and two spaces, so that no name runs into its state.
  std::size_t name_width = 16;
  for (const PluginRecord& plugin : plugins) {
    name_width = std::max(name_width, printable_text(plugin.name).size() + 2);
  }
  for (const PluginRecord& plugin : plugins) {
    out << "  " << std::left << std::setw(static_cast<int>(name_width))
        << printable_text(plugin.name) << std::setw(12) << to_string(plugin.state);
    if (plugin.state == PluginState::broken) {
      out << printable_text(plugin.reason) << "\n    file: " << printable_text(plugin.path) << "\n";
      continue;
    }
    out << std::setw(8) << to_string(plugin.memory_space) << "v" << printable_text(plugin.version)
        << "  ABI " << plugin.abi_major << "." << plugin.abi_minor << "\n";
    if (plugin.state == PluginState::unavailable) {
      out << "    why: " << printable_text(plugin.reason) << "\n";
    }
    out << "    file: " << printable_text(plugin.path) << "  (found in "
        << printable_text(plugin.found_in) << ")\n";
    std::vector<std::string> workloads;
    for (const KernelRecord& kernel : plugin.kernels) {
      if (std::find(workloads.begin(), workloads.end(), kernel.workload) == workloads.end()) {
        workloads.push_back(kernel.workload);
      }
    }
    for (const std::string& workload : workloads) {
      std::vector<std::string> variants;
      for (const KernelRecord& kernel : plugin.kernels) {
        if (kernel.workload != workload) continue;
        variants.push_back(kernel.variant + ((kernel.flags & PB_KERNEL_OPT_IN) ? " (opt-in)" : ""));
      }
      out << "    " << std::setw(12) << workload << join(variants) << "\n";
    }
  }
  out << "\nworkloads:\n";
  for (const Workload* workload : WorkloadRegistry::instance().all()) {
    std::vector<std::string> distributions = workload->distributions();
    distributions.front() += " (default)";
    out << "  " << std::left << std::setw(12) << workload->name() << workload->description()
        << "\n    distributions: " << join(distributions)
        << "\n    default sizes: " << join(workload->default_sizes()) << "\n";
  }
}

void print_dry_run(std::ostream& out, const Matrix& matrix) {
  out << "matrix: " << matrix.problems.size() << " problems, " << matrix.cells_to_run()
      << " cells to run\n";
  for (const PlannedProblem& problem : matrix.problems) {
    out << "  " << problem.spec.workload->name() << "  n = " << shape_text(problem.spec.shape)
        << "  " << problem.spec.distribution << "\n";
    for (const PlannedCell& cell : problem.cells) {
      out << "    " << std::left << std::setw(16) << cell.plugin->name
          << (cell.kernel ? cell.kernel->variant : std::string("-"));
      if (cell.status) out << "  (" << to_string(*cell.status) << ": " << cell.message << ")";
      out << "\n";
    }
  }
}

}  // namespace plugbench
