// report_table.cpp: fixed-width console tables.
#include "report_table.hpp"

#include "sizes.hpp"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace plugbench {
namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_number(const std::optional<double>& value, int decimals) {
  return value && std::isfinite(*value) ? fixed(*value, decimals) : "-";
}

std::string format_scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value);
  return text;
}

std::string verification_text(const CellResult& cell) {
  if (!cell.verification) return cell.status;
  const Verification& v = *cell.verification;
  if (!v.passed) return "NO (" + v.error_measure + " " + format_scientific(v.error) + ")";
  if (v.tolerance == 0) return "yes (exact)";
  return "yes (" + format_scientific(v.error) + " <= " + format_scientific(v.tolerance) + ")";
}

std::string shape_text(const Shape& shape) {
  if (shape.height > 1) {
    return std::to_string(shape.width) + "x" + std::to_string(shape.height) + " (" +
           std::to_string(shape.n) + ")";
  }
  std::string count = describe_count(shape.n);
  return count == std::to_string(shape.n) ? count : std::to_string(shape.n) + " (" + count + ")";
}

std::string flags_text(std::uint32_t flags) {
  std::string text;
  if (flags & PB_KERNEL_SYNCHRONIZES_HOST) text += " [syncs host]";
  if (flags & PB_KERNEL_ALLOCATES) text += " [allocates]";
  return text;
}

}  // namespace

std::string format_ms(const std::optional<double>& ms) {
  if (!ms || !std::isfinite(*ms)) return "-";
  double magnitude = std::fabs(*ms);
  int decimals = magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4;
  return fixed(*ms, decimals);
}

void print_problem_table(std::ostream& out, const ProblemSpec& problem,
                         const std::vector<CellResult>& cells, const std::string& baseline) {
  bool iterations =
      !cells.empty() && cells.front().traffic && !cells.front().traffic->work_unit.empty();
  out << "\n"
      << problem.workload->name() << "  n = " << shape_text(problem.shape) << "  distribution "
      << problem.distribution;
  if (!cells.empty() && cells.front().traffic) {
    const Traffic& t = *cells.front().traffic;
    if (iterations) {
      out << "  work " << fixed(t.work, 0) << " " << t.work_unit;
    } else {
      out << "  traffic " << fixed(t.bytes() / 1048576.0, 1) << " MiB";
    }
  }
  out << "\n";
  const char* rate_title = iterations ? "Git/s" : "GB/s";
  out << std::left << std::setw(16) << "plugin" << std::setw(22) << "variant" << std::right
      << std::setw(11) << "kernel ms" << std::setw(7) << "cv" << std::setw(11) << "e2e ms"
      << std::setw(10) << "in ms" << std::setw(10) << "out ms" << std::setw(9) << rate_title
      << std::setw(7) << "%peak" << std::setw(9) << "speedup"
      << "  verified\n";
  for (const CellResult& cell : cells) {
    out << std::left << std::setw(16) << cell.plugin << std::setw(22)
        << (cell.variant.empty() ? "-" : cell.variant);
    if (!cell.kernel) {
      out << "  " << cell.status << ": " << cell.message << "\n";
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
    out << std::right << std::setw(11) << format_ms(cell.kernel->median_ms) << std::setw(6)
        << fixed(100 * cell.kernel->cv, 1) << "%" << std::setw(11)
        << format_ms(cell.end_to_end ? std::optional<double>(cell.end_to_end->median_ms)
                                     : std::nullopt)
        << std::setw(10) << format_ms(in_ms) << std::setw(10) << format_ms(out_ms) << std::setw(9)
        << format_number(rate, rate && *rate < 10 ? 2 : 1) << std::setw(7)
        << format_number(cell.percent_of_peak, 1) << std::setw(9) << format_number(cell.speedup, 2)
        << "  " << verification_text(cell) << flags_text(cell.flags) << "\n";
  }
  bool any_speedup = false;
  for (const CellResult& cell : cells) any_speedup = any_speedup || cell.speedup.has_value();
  if (!any_speedup) out << "(no speedups: no verified " << baseline << " cell for this problem)\n";
}

void print_listing(std::ostream& out, const std::vector<PluginFolder>& folders,
                   const std::vector<PluginRecord>& plugins) {
  out << "plugin folders searched:\n";
  for (const PluginFolder& folder : folders) {
    out << "  " << folder.path << "  [" << folder.origin << "]\n";
  }
  out << "\nplugins:\n";
  if (plugins.empty()) out << "  none found\n";
  for (const PluginRecord& plugin : plugins) {
    out << "  " << std::left << std::setw(16) << plugin.name << std::setw(12)
        << to_string(plugin.state);
    if (plugin.state == PluginState::broken) {
      out << plugin.reason << "\n    file: " << plugin.path << "\n";
      continue;
    }
    out << std::setw(8) << (plugin.memory_space == PB_MEMORY_DEVICE ? "device" : "host") << "v"
        << plugin.version << "  ABI " << plugin.abi_major << "." << plugin.abi_minor << "\n";
    if (plugin.state == PluginState::unavailable) out << "    why: " << plugin.reason << "\n";
    out << "    file: " << plugin.path << "  (found in " << plugin.found_in << ")\n";
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
      if (!cell.status.empty()) out << "  (" << cell.status << ": " << cell.message << ")";
      out << "\n";
    }
  }
}

}  // namespace plugbench
