// check_plugin.cpp: harness --check-plugin: the descriptor a plugin declares, then every kernel on
// every distribution of its workload at the awkward sizes, through the same cell protocol as a run
// (one repetition, no warm-up, warm caches), with each wrong answer or error said plainly.
#include "check_plugin.hpp"

#include "awkward_sizes.hpp"
#include "cell_runner.hpp"
#include "harness_app.hpp"
#include "matrix.hpp"
#include "plugin_loader.hpp"
#include "plugin_session.hpp"

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

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::string flags_text(std::uint32_t flags) {
  std::vector<std::string> names;
  if (flags & PB_KERNEL_SYNCHRONIZES_HOST) names.push_back("synchronizes-host");
  if (flags & PB_KERNEL_ALLOCATES) names.push_back("allocates");
  if (flags & PB_KERNEL_OPT_IN) names.push_back("opt-in");
  const std::uint32_t known = PB_KERNEL_SYNCHRONIZES_HOST | PB_KERNEL_ALLOCATES | PB_KERNEL_OPT_IN;
  if (flags & ~known) {
    char bits[32];
    std::snprintf(bits, sizeof bits, "unknown bits 0x%x", flags & ~known);
    names.push_back(bits);
  }
  return names.empty() ? "none" : join(names);
}

std::string shape_text(const Workload& workload, const Shape& shape) {
  if (workload.name() == "mandelbrot") {
    return std::to_string(shape.width) + "x" + std::to_string(shape.height);
  }
  return std::to_string(shape.n);
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

void print_descriptor(std::ostream& out, const PluginRecord& plugin) {
  out << "plugin file:   " << plugin.path << "\n"
      << "name:          " << plugin.name << "\n"
      << "version:       " << plugin.version << "\n";
  if (!plugin.description.empty()) out << "description:   " << plugin.description << "\n";
  out << "plugin ABI:    " << plugin.abi_major << "." << plugin.abi_minor
      << " (this harness speaks " << PB_ABI_MAJOR << "." << PB_ABI_MINOR << ": accepted)\n"
      << "memory space:  " << (plugin.memory_space == PB_MEMORY_DEVICE ? "device" : "host") << "\n";
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
  std::size_t errors = 0;
  std::size_t unsupported = 0;
  std::vector<std::string> findings;  // one line per problem that did not verify
};

struct CachedProblem {
  ProblemData data;
  std::shared_ptr<const Reference> reference;
};

// One line for a cell that did not verify: where, the status, the message, what was compared.
std::string finding_for(const Workload& workload, const std::string& distribution,
                        const CellResult& cell) {
  std::string line = distribution + " n=" + shape_text(workload, cell.shape) + ": " + cell.status;
  if (!cell.message.empty()) line += ": " + cell.message;
  if (cell.verification && !cell.verification->passed) {
    const Verification& v = *cell.verification;
    line += "\n        compared " + v.compared + "; " + v.error_measure + " " +
            number_text(v.error) + ", tolerance " + number_text(v.tolerance);
  }
  return line;
}

KernelCheck check_kernel(const Workload& workload, const KernelRecord& kernel,
                         const PluginSession& session,
                         std::map<std::pair<std::string, std::size_t>, CachedProblem>& problems) {
  RunSettings settings;
  settings.repetitions = 1;
  settings.warmup = 0;
  settings.cache = CacheMode::warm;
  KernelCheck check;
  for (const std::string& distribution : workload.distributions()) {
    std::vector<Shape> shapes = awkward_shapes(workload);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      CachedProblem& problem = problems[{distribution, i}];
      if (!problem.reference) {
        problem.data = workload.generate(shapes[i], distribution);
        problem.reference = workload.reference(problem.data);
      }
      CellResult cell =
          run_cell(workload, problem.data, *problem.reference, session, kernel, settings);
      ++check.problems;
      if (cell.status == status::ok) {
        ++check.verified;
        continue;
      }
      if (cell.status == status::unsupported) {
        ++check.unsupported;  // a limit the kernel declares or reports: not a fault
        continue;
      }
      if (cell.status == status::failed) {
        ++check.failed;
      } else {
        ++check.errors;  // error, oom, or unavailable from a plugin that said it was available
      }
      check.findings.push_back(finding_for(workload, distribution, cell));
    }
  }
  return check;
}

std::string sizes_text() {
  std::vector<std::string> counts, images;
  for (std::uint64_t n : kAwkwardCounts) counts.push_back(std::to_string(n));
  for (const Shape& shape : kAwkwardImages) {
    images.push_back(std::to_string(shape.width) + "x" + std::to_string(shape.height));
  }
  return "n = " + join(counts) + " (mandelbrot: " + join(images) + ")";
}

}  // namespace

int check_plugin(const Options& options, std::ostream& out, std::ostream& err) {
  const bool all_workloads = contains(options.workloads, "all");
  if (!all_workloads) {
    for (const std::string& name : options.workloads) {
      if (WorkloadRegistry::instance().find(name) == nullptr) {
        err << "harness: --workload '" << name << "' is not a workload of this harness\n";
        return kExitUsage;
      }
    }
  }
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(options.check_plugin, ignored);
  PluginRecord plugin = load_plugin(path.string(), "--check-plugin");
  if (plugin.state == PluginState::broken) {
    err << "harness: --check-plugin " << path.string() << ": " << plugin.reason << "\n";
    return kExitUsage;
  }
  print_descriptor(out, plugin);

  const bool all_variants = contains(options.variants, "all");
  std::vector<const KernelRecord*> selected;
  std::vector<std::string> skipped;
  for (const KernelRecord& kernel : plugin.kernels) {
    if (!all_workloads && !contains(options.workloads, kernel.workload)) continue;
    if (!all_variants && !contains(options.variants, kernel.variant)) continue;
    if (all_variants && (kernel.flags & PB_KERNEL_OPT_IN)) {
      skipped.push_back(kernel.workload + "/" + kernel.variant);
      continue;
    }
    selected.push_back(&kernel);
  }

  out << "\n";
  if (plugin.kernels.empty()) {
    out << "result: ERROR: the plugin declares no kernels (are the files with its "
           "PLUGBENCH_KERNEL lines compiled into the library?)\n";
    return kExitCellError;
  }
  if (selected.empty() && skipped.empty()) {
    err << "harness: no kernel of " << plugin.name << " matches --workload / --variants\n";
    return kExitUsage;
  }
  if (plugin.state != PluginState::available) {
    out << "result: loaded and described; its kernels were not run: the plugin is unavailable "
           "on this machine ("
        << plugin.reason << ")\n";
    return kExitOk;
  }
  std::unique_ptr<PluginSession> session;
  try {
    session = std::make_unique<PluginSession>(plugin, options.device);
  } catch (const PluginCallError& e) {
    out << "result: ERROR: " << e.what() << "\n";
    return kExitCellError;
  }

  out << "checking each kernel on every distribution of its workload at " << sizes_text()
      << ", against the harness's references:\n";
  std::size_t passed = 0, failed = 0, errors = 0, not_run = 0;
  std::set<std::string> workloads_done;
  for (const KernelRecord* first : selected) {
    if (!workloads_done.insert(first->workload).second) continue;
    const Workload* workload = WorkloadRegistry::instance().find(first->workload);
    // Inputs and references are made once per workload and shared by its kernels.
    std::map<std::pair<std::string, std::size_t>, CachedProblem> problems;
    for (const KernelRecord* kernel : selected) {
      if (kernel->workload != first->workload) continue;
      out << "  " << kernel->workload << "/" << kernel->variant << ": " << std::flush;
      if (workload == nullptr) {
        std::vector<std::string> names;
        for (const Workload* known : WorkloadRegistry::instance().all())
          names.push_back(known->name());
        out << "ERROR: this harness has no workload '" << kernel->workload
            << "' (it knows: " << join(names) << ")\n";
        ++errors;
        continue;
      }
      KernelCheck check = check_kernel(*workload, *kernel, *session, problems);
      if (check.errors > 0) {
        ++errors;
        out << "ERROR on " << check.errors << " of " << check.problems << " problems";
        if (check.failed > 0) out << ", wrong answers on " << check.failed;
      } else if (check.failed > 0) {
        ++failed;
        out << "WRONG ANSWER on " << check.failed << " of " << check.problems << " problems";
      } else if (check.verified == 0) {
        ++not_run;
        out << "not run: unsupported on all " << check.problems << " problems";
      } else {
        ++passed;
        out << "ok, " << check.verified << " of " << check.problems << " problems verified";
      }
      if (check.unsupported > 0 && check.verified > 0) {
        out << " (" << check.unsupported << " unsupported: the kernel's declared limit)";
      }
      out << "\n";
      for (std::size_t i = 0; i < check.findings.size() && i < kProblemsShownPerKernel; ++i) {
        out << "      " << check.findings[i] << "\n";
      }
      if (check.findings.size() > kProblemsShownPerKernel) {
        out << "      ... and " << check.findings.size() - kProblemsShownPerKernel << " more\n";
      }
    }
  }
  for (const std::string& name : skipped) {
    out << "  " << name << ": skipped: opt-in (name it with --variants to check it)\n";
  }

  const std::size_t checked = passed + failed + errors + not_run;
  out << "\nsummary: " << checked << (checked == 1 ? " kernel" : " kernels")
      << " checked: " << passed << " passed, " << failed << " gave wrong answers, " << errors
      << " reported errors, " << not_run << " unsupported everywhere";
  if (!skipped.empty()) out << "; " << skipped.size() << " opt-in skipped";
  out << "\n";
  if (errors > 0) {
    out << "result: ERRORS (exit 3): see the kernels marked ERROR above\n";
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
