// check_plugin_command.cpp: harness --check-plugin: the descriptor a plugin declares, then every
// kernel on every distribution of its workload at the awkward sizes, planned and run as a run is
// (the same variant filter, worker processes and --timeout; one repetition, no warm-up, warm
// caches), with each wrong answer, error, crash or hang said plainly.
#include "cli/check_plugin_command.hpp"

#include "base/exit_codes.hpp"
#include "base/safe_text.hpp"
#include "base/stdout_diversion.hpp"
#include "base/stop_signal.hpp"
#include "base/text_list.hpp"
#include "cells/cell_source.hpp"
#include "load/kernel_flags.hpp"
#include "load/plugin_loader.hpp"
#include "plan/awkward_sizes.hpp"
#include "plan/matrix.hpp"
#include "render/figure_text.hpp"
#include "run/matrix_run.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

namespace plugbench {
namespace {

// Problems listed under one kernel before the rest are only counted.
constexpr std::size_t kProblemsShownPerKernel = 6;

std::string flags_text(std::uint32_t flags) {
  std::vector<std::string> names;
  for (const KernelFlagName& flag : kKernelFlagNames) {
    if (flags & flag.bit) names.push_back(flag.listing);
  }
  if (flags & ~kKnownKernelFlags) {
    char bits[32];
    std::snprintf(bits, sizeof bits, "unknown bits 0x%x", flags & ~kKnownKernelFlags);
    names.push_back(bits);
  }
  return names.empty() ? "none" : join(names);
}

std::string shape_text(const Workload& workload, const Shape& shape) {
  if (workload.is_image()) {
    return std::to_string(shape.width) + "x" + std::to_string(shape.height);
  }
  return std::to_string(shape.n);
}

void print_descriptor(std::ostream& out, const PluginRecord& plugin) {
  out << "plugin file:   " << plugin.path << "\n"
      << "name:          " << plugin.name << "\n"
      << "version:       " << plugin.version << "\n";
  if (!plugin.description.empty()) out << "description:   " << plugin.description << "\n";
  out << "plugin ABI:    " << plugin.abi_major << "." << plugin.abi_minor
      << " (this harness speaks " << PB_ABI_MAJOR << "." << PB_ABI_MINOR << ": accepted)\n"
      << "memory space:  " << to_string(plugin.memory_space) << "\n";
  out << "build info:" << (plugin.build_info.empty() ? "    none" : "") << "\n";
  for (const auto& [key, value] : plugin.build_info) out << "  " << key << ": " << value << "\n";
  out << "probe:         " << to_string(plugin.state);
  if (plugin.state != PluginState::available) out << ": " << plugin.reason;
  out << "\nkernels:       " << plugin.kernels.size() << "\n";
  for (const KernelRecord& kernel : plugin.kernels) {
    out << "  " << kernel.workload << "/" << kernel.variant << "\n"
        << "    flags: " << flags_text(kernel.flags)
        << "; max_n: " << (kernel.max_n ? std::to_string(kernel.max_n) : "no limit")
        << "; workspace: " << (kernel.table->workspace_bytes ? "asked for per problem" : "none")
        << "\n";
    if (!kernel.description.empty()) out << "    " << kernel.description << "\n";
  }
}

// How one kernel did over all its problems.
struct KernelCheck {
  std::size_t problems = 0;
  std::size_t verified = 0;
  std::size_t failed = 0;
  std::size_t errors = 0;  // error, oom, crashed, timeout, or unavailable after all
  std::size_t unsupported = 0;
  std::string first_unsupported;  // the kernel's (or its declared limit's) reason, as it said it
  std::size_t skipped = 0;        // not run after the kernel crashed or hung on an earlier problem
  std::set<CellStatus> error_statuses;
  std::vector<std::string> findings;  // one line per problem that did not verify
};

// The kernel's error statuses by name, in alphabetical order: "crashed, timeout".
std::string error_statuses_text(const KernelCheck& check) {
  std::set<std::string> names;
  for (CellStatus error : check.error_statuses) names.insert(to_string(error));
  return join(std::vector<std::string>(names.begin(), names.end()));
}

// One line for a cell that did not verify: where, the status, the message, what was compared.
std::string finding_for(const Workload& workload, const CellResult& cell) {
  std::string line =
      cell.distribution + " n=" + shape_text(workload, cell.shape) + ": " + to_string(cell.status);
  if (!cell.message.empty()) line += ": " + printable_text(cell.message);
  if (cell.verification && !cell.verification->passed) {
    const Verification& v = *cell.verification;
    line += "\n        compared " + v.compared + "; " + v.error_measure + " " +
            number_text(v.error, "%.6g") + ", tolerance " + number_text(v.tolerance, "%.6g");
  }
  return line;
}

void count(KernelCheck& check, const Workload& workload, const CellResult& cell) {
  if (cell.status == CellStatus::skipped) {
    ++check.skipped;  // its worker had crashed too often: the crashes themselves are counted
    return;
  }
  ++check.problems;
  if (cell.status == CellStatus::ok) {
    ++check.verified;
    return;
  }
  if (cell.status == CellStatus::unsupported) {
    ++check.unsupported;  // a limit the kernel declares or reports: not a fault
    if (check.first_unsupported.empty()) check.first_unsupported = cell.message;
    return;
  }
  if (cell.status == CellStatus::failed) {
    ++check.failed;
  } else {
    ++check.errors;
    // A cell this harness ran has a status of its table.
    if (cell.status.known) check.error_statuses.insert(*cell.status.known);
  }
  check.findings.push_back(finding_for(workload, cell));
}

std::string sizes_text() {
  std::vector<std::string> counts, images;
  for (std::uint64_t n : kAwkwardCounts) counts.push_back(std::to_string(n));
  for (const Shape& shape : kAwkwardImages) {
    images.push_back(std::to_string(shape.width) + "x" + std::to_string(shape.height));
  }
  return "n = " + join(counts) + " (image workloads: " + join(images) + ")";
}

bool sizes_given(const Options& options) {
  return std::any_of(options.plan.sizes.begin(), options.plan.sizes.end(),
                     [](const std::string& entry) { return !entry.empty(); });
}

// The plan: this plugin alone, every distribution of each chosen workload, the awkward shapes and,
// for the workloads that --sizes gives sizes to, those too (a kernel's large-size paths).
MatrixChoices check_choices(const Options& options, const PluginRecord& plugin) {
  const MatrixChoices run = matrix_choices(options.plan);  // --sizes read as a run reads it
  MatrixChoices choices;
  choices.plugins = {plugin.name};
  choices.workloads = options.plan.workloads;
  choices.distributions = {"all"};
  choices.variants = options.plan.variants;
  choices.baseline = plugin.name;
  choices.sized_workloads = run.sized_workloads;
  choices.sizes_for_the_rest = run.sizes_for_the_rest;
  choices.shapes = [run](const Workload& workload) {
    ShapeList shapes;
    for (const Shape& shape : awkward_shapes(workload)) {
      shapes.emplace_back(shape, shape_text(workload, shape));
    }
    const bool named = std::find(run.sized_workloads.begin(), run.sized_workloads.end(),
                                 workload.name()) != run.sized_workloads.end();
    if (named || !run.sizes_for_the_rest.empty()) {  // sizes given for this workload
      for (const auto& [shape, text] : run.shapes(workload)) {
        const bool awkward = std::any_of(shapes.begin(), shapes.end(),
                                         [&](const auto& known) { return known.first == shape; });
        if (!awkward) shapes.emplace_back(shape, text);  // -s 1000 is checked once
      }
    }
    return shapes;
  };
  return choices;
}

// Kernels that name a workload this harness does not have: nothing to check them against.
std::vector<const KernelRecord*> kernels_without_workload(const PluginRecord& plugin) {
  std::vector<const KernelRecord*> kernels;
  for (const KernelRecord& kernel : plugin.kernels) {
    if (WorkloadRegistry::instance().find(kernel.workload) == nullptr) kernels.push_back(&kernel);
  }
  return kernels;
}

void print_kernel_line(std::ostream& out, const KernelRecord& kernel, const KernelCheck& check) {
  out << "  " << kernel.workload << "/" << kernel.variant << ": ";
  if (check.errors > 0) {
    out << "ERROR on " << check.errors << " of " << check.problems << " problems ("
        << error_statuses_text(check) << ")";
    if (check.failed > 0) out << ", wrong answers on " << check.failed;
  } else if (check.failed > 0) {
    out << "WRONG ANSWER on " << check.failed << " of " << check.problems << " problems";
  } else if (check.verified == 0) {
    out << "not run: unsupported on all " << check.problems << " problems";
  } else {
    out << "ok, " << check.verified << " of " << check.problems << " problems verified";
  }
  if (check.unsupported > 0) {
    const bool all_unsupported = check.unsupported == check.problems;
    out << " (" << (all_unsupported ? "" : std::to_string(check.unsupported) + " unsupported, ")
        << "the first: "
        << printable_text(check.first_unsupported.empty() ? "no reason given"
                                                          : check.first_unsupported)
        << ")";
  }
  if (check.skipped > 0) {
    out << "; " << check.skipped << " more problems not run after it crashed or hung";
  }
  out << "\n";
  for (std::size_t i = 0; i < check.findings.size() && i < kProblemsShownPerKernel; ++i) {
    out << "      " << check.findings[i] << "\n";
  }
  if (check.findings.size() > kProblemsShownPerKernel) {
    out << "      ... and " << check.findings.size() - kProblemsShownPerKernel << " more\n";
  }
}

}  // namespace

int check_plugin(const Options& options, std::ostream& out, std::ostream& err) {
  for (const std::string& name : options.plan.workloads) {
    if (name != "all" && WorkloadRegistry::instance().find(name) == nullptr) {
      err << "harness: --workload '" << name << "' is not a workload of this harness\n";
      return kExitUsage;
    }
  }
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(options.check_plugin, ignored);
  // The plan points into this list: the plugin is read from it, never copied out.
  // The check's report is on `out`: what the library prints while loading goes to stderr.
  const std::vector<PluginRecord> plugins = [&path] {
    const StdoutDiversion diverted = StdoutDiversion::to_stderr();
    return std::vector<PluginRecord>{load_plugin(path.string(), "--check-plugin")};
  }();
  const PluginRecord& plugin = plugins.front();
  if (plugin.state == PluginState::broken) {
    err << "harness: --check-plugin " << path.string() << ": " << plugin.reason << "\n";
    return kExitUsage;
  }
  Matrix matrix;
  try {
    matrix = plan_matrix(check_choices(options, plugin), plugins);
  } catch (const UsageError& e) {
    err << "harness: --check-plugin: " << e.what() << "\n";
    return kExitUsage;
  }
  print_descriptor(out, plugin);

  out << "\n";
  if (plugin.kernels.empty()) {
    out << "result: ERROR: the plugin declares no kernels (are the files with its "
           "PLUGBENCH_KERNEL lines compiled into the library?)\n";
    return kExitCellError;
  }
  // The kernels planned, in the plugin's order, and the opt-in ones the filter left out.
  std::vector<const KernelRecord*> planned, skipped;
  for (const KernelRecord& kernel : plugin.kernels) {
    const bool in_plan = std::any_of(
        matrix.problems.begin(), matrix.problems.end(), [&](const PlannedProblem& problem) {
          return std::any_of(problem.cells.begin(), problem.cells.end(),
                             [&](const PlannedCell& cell) { return cell.kernel == &kernel; });
        });
    if (in_plan) {
      planned.push_back(&kernel);
    } else if ((kernel.flags & PB_KERNEL_OPT_IN) &&
               WorkloadRegistry::instance().find(kernel.workload) != nullptr) {
      skipped.push_back(&kernel);
    }
  }
  const bool all_workloads = std::find(options.plan.workloads.begin(), options.plan.workloads.end(),
                                       "all") != options.plan.workloads.end();
  const std::vector<const KernelRecord*> unknown =
      all_workloads ? kernels_without_workload(plugin) : std::vector<const KernelRecord*>{};
  if (plugin.state != PluginState::available) {
    out << "result: loaded and described; its kernels were not run: the plugin is unavailable "
           "on this machine ("
        << plugin.reason << ")\n";
    return kExitOk;
  }
  if (planned.empty() && skipped.empty() && unknown.empty()) {
    err << "harness: no kernel of " << plugin.name << " matches --workload / --variants\n";
    return kExitUsage;
  }

  out << "checking each kernel on every distribution of its workload at " << sizes_text()
      << (sizes_given(options) ? " and the sizes given with --sizes" : "")
      << ", against the harness's references\n("
      << (options.isolation.mode == IsolationMode::process
              ? "each problem in a worker process: a crash or a hang is that kernel's error"
              : "--isolation none: in this process, where a crash ends the check");
  if (options.isolation.mode == IsolationMode::process && options.isolation.timeout_s > 0) {
    out << "; at most " << number_text(options.isolation.timeout_s, "%.6g")
        << " s a problem, --timeout";
  }
  out << "):\n" << std::flush;

  install_stop_handlers();
  // A kernel that crashes or hangs is not run again: its other problems would only repeat it (a
  // hang costs --timeout each), and every other kernel still gets its turn.
  IsolationSettings isolation = options.isolation;
  isolation.max_restarts = static_cast<int>(plugin.kernels.size());
  isolation.calibrate = false;
  std::unique_ptr<CellSource> source =
      make_cell_source(isolation, stop_fd(), [](const PluginRecord&, const SessionFacts&) {});
  RunSettings settings;
  settings.repetitions = 1;
  settings.warmup = 0;
  settings.cache = CacheMode::warm;
  std::map<const KernelRecord*, KernelCheck> checks;
  std::set<std::string> workloads_reported;
  auto report_workload = [&](const std::string& workload) {
    if (!workloads_reported.insert(workload).second) return;
    for (const KernelRecord* kernel : planned) {
      if (kernel->workload == workload) print_kernel_line(out, *kernel, checks[kernel]);
    }
    out << std::flush;
  };
  std::string current_workload;
  for (const PlannedProblem& problem : matrix.problems) {
    if (stop_requested()) break;
    const Workload& workload = *problem.spec.workload;
    if (!current_workload.empty() && current_workload != workload.name()) {
      report_workload(current_workload);
    }
    current_workload = workload.name();
    for (const PlannedCell& cell : problem.cells) {
      if (!cell.to_run() || stop_requested()) continue;
      KernelCheck& check = checks[cell.kernel];
      if (check.error_statuses.count(CellStatus::crashed) ||
          check.error_statuses.count(CellStatus::timeout)) {
        ++check.skipped;
        continue;
      }
      std::optional<CellResult> result =
          source->run(*cell.plugin, request_for(problem.spec, cell, settings));
      if (!result) break;
      count(check, workload, *result);
    }
    source->problem_done();
  }
  source.reset();
  if (stop_requested()) {
    out << "\nresult: INTERRUPTED by signal " << stop_signal_number()
        << " (exit 5): the kernels above were checked\n";
    return kExitInterrupted;
  }
  if (!current_workload.empty()) report_workload(current_workload);
  for (const KernelRecord* kernel : unknown) {
    std::vector<std::string> names;
    for (const Workload* known : WorkloadRegistry::instance().all()) names.push_back(known->name());
    out << "  " << kernel->workload << "/" << kernel->variant
        << ": ERROR: this harness has no workload '" << kernel->workload
        << "' (it knows: " << join(names) << ")\n";
  }
  for (const KernelRecord* kernel : skipped) {
    out << "  " << kernel->workload << "/" << kernel->variant
        << ": skipped: opt-in (name it with --variants to check it)\n";
  }

  std::size_t passed = 0, failed = 0, errors = unknown.size(), not_run = 0;
  std::vector<std::string> erring;
  for (const KernelRecord* kernel : planned) {
    const KernelCheck& check = checks[kernel];
    if (check.errors > 0) {
      ++errors;
      erring.push_back(kernel->workload + "/" + kernel->variant + " (" +
                       error_statuses_text(check) + ")");
    } else if (check.failed > 0) {
      ++failed;
    } else if (check.verified == 0) {
      ++not_run;
    } else {
      ++passed;
    }
  }
  for (const KernelRecord* kernel : unknown) {
    erring.push_back(kernel->workload + "/" + kernel->variant + " (unknown workload)");
  }
  const std::size_t checked = passed + failed + errors + not_run;
  out << "\nsummary: " << checked << (checked == 1 ? " kernel" : " kernels")
      << " checked: " << passed << " passed, " << failed << " gave wrong answers, " << errors
      << " ended in errors, " << not_run << " unsupported everywhere";
  if (!skipped.empty()) out << "; " << skipped.size() << " opt-in skipped";
  out << "\n";
  if (errors > 0) {
    out << "result: ERRORS (exit 3): " << join(erring) << "\n";
    return kExitCellError;
  }
  if (failed > 0) {
    out << "result: WRONG ANSWERS (exit 1): see the kernels marked WRONG ANSWER above\n";
    return kExitVerificationFailed;
  }
  out << "result: all kernels passed\n";
  return kExitOk;
}

}  // namespace plugbench
