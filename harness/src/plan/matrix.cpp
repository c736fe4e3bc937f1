// matrix.cpp: selection of plugins, workloads, distributions, sizes and variants.
#include "plan/matrix.hpp"

#include "base/text_list.hpp"
#include "base/usage_error.hpp"
#include "measure/derived_figures.hpp"
#include "plan/sizes.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace plugbench {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<const PluginRecord*> select_plugins(const MatrixChoices& options,
                                                const std::vector<PluginRecord>& plugins,
                                                bool& named_explicitly) {
  std::vector<const PluginRecord*> selected;
  named_explicitly = !contains(options.plugins, "all");
  if (!named_explicitly) {
    for (const PluginRecord& plugin : plugins) {
      if (plugin.state == PluginState::available) selected.push_back(&plugin);
    }
  } else {
    for (const std::string& name : options.plugins) {
      auto it = std::find_if(plugins.begin(), plugins.end(), [&](const PluginRecord& p) {
        return p.state != PluginState::broken && p.name == name;
      });
      if (it == plugins.end()) {
        std::vector<std::string> known;
        for (const PluginRecord& p : plugins) {
          known.push_back(p.name + " (" + to_string(p.state) + ")");
        }
        throw UsageError("unknown plugin '" + name + "'; plugins found: " +
                         (known.empty() ? std::string("none (see --plugin-dir)") : join(known)) +
                         ", or 'all'");
      }
      if (std::find(selected.begin(), selected.end(), &*it) == selected.end()) {
        selected.push_back(&*it);
      }
    }
  }
  // Baseline first, then host plugins, then device plugins, each by name.
  const std::string baseline_name = baseline_plugin(options.baseline);
  std::stable_sort(selected.begin(), selected.end(),
                   [&](const PluginRecord* a, const PluginRecord* b) {
                     auto key = [&](const PluginRecord* p) {
                       return std::make_tuple(p->name != baseline_name, p->memory_space, p->name);
                     };
                     return key(a) < key(b);
                   });
  return selected;
}

std::vector<const Workload*> select_workloads(const MatrixChoices& options) {
  std::vector<const Workload*> all = WorkloadRegistry::instance().all();
  if (contains(options.workloads, "all")) {
    // Distributed workloads run when named: alone they repeat reduce and sort with an exchange
    // of nothing.
    std::erase_if(all, [](const Workload* w) { return w->distributed(); });
    return all;
  }
  std::vector<const Workload*> selected;
  for (const std::string& name : options.workloads) {
    const Workload* workload = WorkloadRegistry::instance().find(name);
    if (workload == nullptr) {
      std::vector<std::string> names;
      for (const Workload* w : all) names.push_back(w->name());
      throw UsageError("unknown workload '" + name + "'; valid: " + join(names) + ", or 'all'");
    }
    if (std::find(selected.begin(), selected.end(), workload) == selected.end()) {
      selected.push_back(workload);
    }
  }
  return selected;
}

std::vector<std::string> select_distributions(const MatrixChoices& options,
                                              const Workload& workload) {
  std::vector<std::string> known = workload.distributions();
  if (options.distributions.empty()) return {known.front()};
  if (contains(options.distributions, "all")) return known;
  std::vector<std::string> selected;
  for (const std::string& name : options.distributions) {
    if (contains(known, name)) selected.push_back(name);
  }
  return selected;
}

void check_distribution_names(const MatrixChoices& options,
                              const std::vector<const Workload*>& workloads) {
  for (const std::string& name : options.distributions) {
    if (name == "all") continue;
    bool found = std::any_of(workloads.begin(), workloads.end(),
                             [&](const Workload* w) { return contains(w->distributions(), name); });
    if (!found) {
      std::vector<std::string> valid;
      for (const Workload* w : workloads)
        valid.push_back(w->name() + ": " + join(w->distributions(), "/"));
      throw UsageError("unknown distribution '" + name +
                       "' for the selected workloads; valid: " + join(valid, "; ") + ", or 'all'");
    }
  }
}

ShapeList shapes_for(const Workload& workload, const std::vector<SizeRequest>& requests) {
  ShapeList shapes;
  for (const SizeRequest& request : requests) {
    Shape shape;
    if (request.is_shape()) {
      shape = workload.is_image() ? Shape{request.n, request.width, request.height}
                                  : Shape{request.n, request.n, 1};
    } else {
      shape = workload.shape_for_count(request.n);
    }
    bool seen = std::any_of(shapes.begin(), shapes.end(),
                            [&](const auto& entry) { return entry.first == shape; });
    if (!seen) shapes.emplace_back(shape, request.text);
  }
  return shapes;
}

std::vector<SizeRequest> parse_size_option(const std::string& text) {
  try {
    return parse_sizes(text);
  } catch (const SizeError& e) {
    throw UsageError(std::string("--sizes: ") + e.what());
  }
}

// The -s lists: one per named workload, and at most one without a name for the others.
struct SizePlan {
  std::map<std::string, std::vector<SizeRequest>> named;
  std::optional<std::vector<SizeRequest>> rest;
  std::string rest_text;  // as given
};

SizePlan plan_sizes(const std::vector<std::string>& entries) {
  SizePlan plan;
  for (const std::string& entry : entries) {
    if (entry.empty()) continue;  // -s "" (an empty variable in a script): the defaults
    const auto equals = entry.find('=');
    if (equals == std::string::npos) {
      if (plan.rest) {
        throw UsageError("--sizes: two lists without a workload name ('" + entry +
                         "'); give one list for every workload, the others as WORKLOAD=SIZES");
      }
      plan.rest = parse_size_option(entry);
      plan.rest_text = entry;
      continue;
    }
    if (equals == 0) {
      throw UsageError("--sizes: '" + entry +
                       "' names no workload before '='; write "
                       "WORKLOAD[,WORKLOAD...]=SIZES, or the sizes alone for every workload");
    }
    const std::vector<SizeRequest> requests = parse_size_option(entry.substr(equals + 1));
    for (const std::string& name : split_list(entry.substr(0, equals), "sizes")) {
      if (WorkloadRegistry::instance().find(name) == nullptr) {
        std::vector<std::string> names;
        for (const Workload* w : WorkloadRegistry::instance().all()) names.push_back(w->name());
        throw UsageError("--sizes: unknown workload '" + name + "' in '" + entry +
                         "'; valid: " + join(names));
      }
      if (!plan.named.emplace(name, requests).second) {
        throw UsageError("--sizes: workload '" + name + "' is given sizes twice");
      }
    }
  }
  return plan;
}

// --variants: "all", variant names ("sequential"), plugin-qualified names ("cpu_serial/std_sort"),
// and exclusions with a leading '-' ("all,-cpu_serial/std_sort"). Opt-in kernels run only when
// named.
class VariantFilter {
 public:
  explicit VariantFilter(const std::vector<std::string>& entries) {
    for (const std::string& entry : entries) {
      if (entry == "all") {
        all_ = true;
      } else if (entry.size() > 1 && entry[0] == '-') {
        excluded_.push_back(entry.substr(1));
      } else {
        included_.push_back(entry);
      }
    }
    if (included_.empty()) all_ = true;  // only exclusions: everything else runs
  }

  bool wants(const std::string& plugin, const KernelRecord& kernel) const {
    auto matches = [&](const std::string& entry) {
      return entry == kernel.variant || entry == plugin + "/" + kernel.variant;
    };
    if (std::any_of(excluded_.begin(), excluded_.end(), matches)) return false;
    if (std::any_of(included_.begin(), included_.end(), matches)) return true;
    return all_ && (kernel.flags & PB_KERNEL_OPT_IN) == 0;
  }

  // Every named entry must match a kernel of the selected plugins and workloads.
  void check_names(const std::set<std::string>& seen) const {
    std::vector<std::string> named = included_;
    named.insert(named.end(), excluded_.begin(), excluded_.end());
    for (const std::string& entry : named) {
      bool found = std::any_of(seen.begin(), seen.end(), [&](const std::string& qualified) {
        return qualified == entry || qualified.substr(qualified.find('/') + 1) == entry;
      });
      if (!found) {
        throw UsageError(
            "unknown variant '" + entry + "' for the selected plugins and workloads; " +
            "valid: " + join(std::vector<std::string>(seen.begin(), seen.end())) +
            " (or the part after '/'), 'all', and any of them after '-' to leave it out");
      }
    }
  }

 private:
  bool all_ = false;
  std::vector<std::string> included_;
  std::vector<std::string> excluded_;
};

// A plugin, or one variant of one: "cpu_serial", "cuda_optimized/onesweep".
bool well_formed_baseline(const std::string& baseline) {
  const std::size_t slash = baseline.find('/');
  if (slash == std::string::npos) return !baseline.empty();
  return slash > 0 && slash + 1 < baseline.size() &&
         baseline.find('/', slash + 1) == std::string::npos;
}

// Why the variant named as the baseline (PLUGIN/VARIANT, its plugin found) is no cell of the run.
std::string unplanned_baseline_reason(const std::string& baseline,
                                      const std::vector<PluginRecord>& plugins,
                                      const std::vector<const PluginRecord*>& selected,
                                      const std::set<std::string>& variants_seen) {
  const std::string name = baseline_plugin(baseline);
  const std::string variant = baseline.substr(name.size() + 1);
  const auto record = std::find_if(plugins.begin(), plugins.end(), [&](const PluginRecord& p) {
    return p.state != PluginState::broken && p.name == name;
  });
  if (record->state != PluginState::available) {
    return name + " cannot run here (" + record->reason + ")";
  }
  if (std::find(selected.begin(), selected.end(), &*record) == selected.end()) {
    return "add " + name + " to --plugins";
  }
  if (variants_seen.count(baseline) == 0) {
    return name + " has no variant " + variant +
           " for the workloads of this run (harness --list shows its variants)";
  }
  const bool opt_in =
      std::any_of(record->kernels.begin(), record->kernels.end(), [&](const KernelRecord& kernel) {
        return kernel.variant == variant && (kernel.flags & PB_KERNEL_OPT_IN) != 0;
      });
  return opt_in ? "it is opt-in: name it in --variants" : "--variants leaves it out: add it there";
}

}  // namespace

std::size_t Matrix::cells_to_run() const {
  std::size_t count = 0;
  for (const PlannedProblem& problem : problems) {
    for (const PlannedCell& cell : problem.cells) count += cell.to_run() ? 1 : 0;
  }
  return count;
}

MatrixChoices matrix_choices(const PlanSettings& settings) {
  MatrixChoices choices;
  choices.plugins = settings.plugins;
  choices.workloads = settings.workloads;
  choices.distributions = settings.distributions;
  choices.variants = settings.variants;
  choices.baseline = settings.baseline;
  choices.baseline_given = settings.baseline_given;
  const SizePlan sizes = plan_sizes(settings.sizes);
  for (const auto& [name, requests] : sizes.named) choices.sized_workloads.push_back(name);
  choices.sizes_for_the_rest = sizes.rest_text;
  choices.shapes = [sizes](const Workload& workload) {
    if (auto named = sizes.named.find(workload.name()); named != sizes.named.end()) {
      return shapes_for(workload, named->second);
    }
    if (sizes.rest) return shapes_for(workload, *sizes.rest);
    std::vector<SizeRequest> requests;
    for (const std::string& text : workload.default_sizes()) {
      for (const SizeRequest& request : parse_size_option(text)) requests.push_back(request);
    }
    return shapes_for(workload, requests);
  };
  return choices;
}

Matrix plan_matrix(const MatrixChoices& options, const std::vector<PluginRecord>& plugins) {
  Matrix matrix;
  bool plugins_named = false;
  matrix.plugins = select_plugins(options, plugins, plugins_named);
  std::vector<const Workload*> workloads = select_workloads(options);
  check_distribution_names(options, workloads);
  for (const std::string& name : options.sized_workloads) {
    if (std::none_of(workloads.begin(), workloads.end(),
                     [&](const Workload* w) { return w->name() == name; })) {
      throw UsageError("--sizes gives sizes for " + name +
                       ", which this run does not include; add it to --workload or drop its sizes");
    }
  }
  const auto has_own_sizes = [&](const Workload* w) {
    return std::find(options.sized_workloads.begin(), options.sized_workloads.end(), w->name()) !=
           options.sized_workloads.end();
  };
  if (!options.sizes_for_the_rest.empty() &&
      std::all_of(workloads.begin(), workloads.end(), has_own_sizes)) {
    throw UsageError("--sizes: the list without a workload name ('" + options.sizes_for_the_rest +
                     "') is for no workload: every workload of this run has its own sizes; drop "
                     "it, or add the workloads it is for to --workload");
  }
  if (options.baseline_given && !well_formed_baseline(options.baseline)) {
    throw UsageError(
        "--baseline '" + options.baseline +
        "': name a plugin (cpu_serial) or one variant of one (cuda_optimized/onesweep)");
  }
  const std::string baseline_name = baseline_plugin(options.baseline);
  bool baseline_known = std::any_of(plugins.begin(), plugins.end(), [&](const PluginRecord& p) {
    return p.state != PluginState::broken && p.name == baseline_name;
  });
  if (!baseline_known && options.baseline_given) {
    throw UsageError("--baseline '" + options.baseline + "': " + baseline_name +
                     " is not a plugin that was found");
  }
  const bool baseline_is_variant = options.baseline.find('/') != std::string::npos;
  bool baseline_planned = false;

  VariantFilter variant_filter(options.variants);
  std::set<std::string> variants_seen;  // "plugin/variant"
  for (const Workload* workload : workloads) {
    const ShapeList shapes = options.shapes(*workload);
    for (const std::string& distribution : select_distributions(options, *workload)) {
      for (const auto& [shape, text] : shapes) {
        PlannedProblem problem{{workload, distribution, shape, text}, {}};
        for (const PluginRecord* plugin : matrix.plugins) {
          if (plugin->state != PluginState::available) {
            problem.cells.push_back({plugin, nullptr, CellStatus::unavailable, plugin->reason});
            continue;
          }
          bool has_workload = false;
          for (const KernelRecord& kernel : plugin->kernels) {
            if (kernel.workload != workload->kernel_workload()) continue;
            has_workload = true;
            variants_seen.insert(plugin->name + "/" + kernel.variant);
            if (variant_filter.wants(plugin->name, kernel)) {
              problem.cells.push_back({plugin, &kernel, std::nullopt, ""});
              baseline_planned =
                  baseline_planned || options.baseline == plugin->name + "/" + kernel.variant;
            }
          }
          if (!has_workload && plugins_named) {
            problem.cells.push_back(
                {plugin, nullptr, CellStatus::unsupported,
                 plugin->name + " has no kernel for " + workload->kernel_workload()});
          }
        }
        if (!problem.cells.empty()) matrix.problems.push_back(std::move(problem));
      }
    }
  }
  variant_filter.check_names(variants_seen);
  // A variant named as the baseline that no cell runs would leave every speedup blank.
  if (baseline_is_variant && baseline_known && !baseline_planned) {
    throw UsageError(
        "--baseline '" + options.baseline + "' is not a cell of this run: " +
        unplanned_baseline_reason(options.baseline, plugins, matrix.plugins, variants_seen));
  }
  return matrix;
}

}  // namespace plugbench
