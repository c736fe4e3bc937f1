// options.cpp: the harness's command-line options and their help text.
#include "cli/options.hpp"

#include "base/checked_number.hpp"
#include "base/safe_text.hpp"
#include "base/text_list.hpp"
#include "render/figure_text.hpp"

#include <boost/program_options.hpp>

#include <array>
#include <iterator>
#include <sstream>

namespace plugbench {
namespace po = boost::program_options;
namespace {

// The options read as numbers by checked_number, not by boost (which takes nan and inf): their
// texts, in the order of kNumberOptions.
// The mode `text` names; a UsageError naming --`option` and every mode where it names none.
template <typename Enum, std::size_t N>
Enum mode_named(const EnumName<Enum> (&table)[N], const std::string& text, const char* option) {
  if (const std::optional<Enum> value = value_named(table, text)) return *value;
  throw UsageError("--" + std::string(option) + " '" + text +
                   "' is not one of: " + names_in(table));
}

struct NumberOption {
  const char* name;
  NumberRule rule;
  double& (*field)(Options&);
};
const NumberOption kNumberOptions[] = {
    {"min-time",
     {0, 3600, false, false, "s"},
     [](Options& o) -> double& { return o.measure.min_time; }},
    {"cell-budget",
     {0, 86400, true, false, "s"},
     [](Options& o) -> double& { return o.measure.cell_budget; }},
    {"throttle-threshold",
     {0, 1, false, true, ""},
     [](Options& o) -> double& { return o.measure.throttle_threshold; }},
    {"outlier-threshold",
     {0, 10, true, true, ""},
     [](Options& o) -> double& { return o.mpi.outlier_threshold; }},
    // 0: no limit; a week at most, so that a deadline never overflows the clock.
    {"timeout",
     {0, 604800, false, false, "s"},
     [](Options& o) -> double& { return o.isolation.timeout_s; }},
};
using NumberTexts = std::array<std::string, std::size(kNumberOptions)>;

po::options_description describe_options(Options& o, std::vector<std::string>& list_options,
                                         std::string& cache, std::string& host_memory,
                                         std::string& isolation, std::string& mpi_sync,
                                         std::string& rank_cpus, std::string& scaling,
                                         std::string& staging, int& repetitions,
                                         NumberTexts& numbers) {
  po::options_description selection("What to run");
  selection.add_options()(
      "plugins,p",
      po::value<std::string>(&list_options[0])->default_value(join(PlanSettings{}.plugins, ",")),
      "plugins to run, a comma list or 'all' (the available ones)")(
      "workload,w",
      po::value<std::string>(&list_options[1])->default_value(join(PlanSettings{}.workloads, ",")),
      "workloads, a comma list or 'all' (every one but the distributed dist_reduce and "
      "dist_sort, which run when named)")("workloads", po::value<std::string>(&list_options[1]),
                                          "same as --workload")(
      "sizes,s", po::value<std::vector<std::string>>(&o.plan.sizes)->composing(),
      "sizes: N, 1M (binary K/M/G), 2^28, 7680x4320, sweeps 2^10..2^28 or 2^10..2^28*4; "
      "default: each workload's own. Repeatable, WORKLOAD[,WORKLOAD...]=SIZES for some "
      "workloads: -s 2^28 -s histogram=7680x4320 (the list without a name is for the rest)")(
      "distribution,d", po::value<std::string>(&list_options[2]),
      "input distributions, a comma list or 'all'; default: each workload's first")(
      "variants,v",
      po::value<std::string>(&list_options[3])->default_value(join(PlanSettings{}.variants, ",")),
      "kernel variants to run, a comma list: names ('sequential'), plugin/name "
      "('cpu_serial/std_sort'), 'all' (every variant except opt-in ones, which run when "
      "named), and '-name' to leave one out ('all,-cpu_serial/std_sort')");
  po::options_description measurement("How to measure");
  measurement.add_options()(
      "repetitions,r", po::value<int>(&repetitions),
      "samples per cell (Google Benchmark repetitions); default: up to 20 within "
      "--cell-budget, at least 3")(
      "min-time",
      po::value<std::string>(&numbers[0])->default_value(number_text(RunSettings{}.min_time, "%g")),
      "seconds each repetition runs at least (several calls averaged), up to 3600; 0: one call "
      "per sample")("warmup",
                    po::value<int>(&o.measure.warmup)->default_value(RunSettings{}.warmup),
                    "untimed calls after the checked call, before sampling")(
      "cell-budget",
      po::value<std::string>(&numbers[1])
          ->default_value(number_text(RunSettings{}.cell_budget, "%g")),
      "seconds of sampling per cell (above 0, up to 86400), cache flushes included, when "
      "--repetitions is not given")(
      "order",
      po::value<std::string>()
          ->default_value(to_string(RunRequest{}.order))
          ->notifier([&o](const std::string& t) {
            o.order = mode_named(kMeasurementOrderNames, t, "order");
          }),
      "interleaved: a problem's cells are sampled in rounds, one sample of each per round in a "
      "fresh random order, so that every cell's samples span the same minutes and ratios pair "
      "samples of one round (docs/measurement.md); sequential: each cell's samples in a row, one "
      "cell after another (the order before rounds)")(
      "order-seed",
      po::value<std::uint64_t>()->notifier([&o](std::uint64_t seed) { o.order_seed = seed; }),
      "seed of the rounds' random order (recorded in the results file; give it to repeat an "
      "order); default: a fresh one")(
      "cache", po::value<std::string>(&cache)->default_value(to_string(RunSettings{}.cache)),
      "cold: caches flushed before every sample (the L2 on a GPU); warm: not flushed")(
      "throttle-threshold",
      po::value<std::string>(&numbers[2])
          ->default_value(number_text(RunSettings{}.throttle_threshold, "%g")),
      "a GPU sample whose SM clock is below this fraction of the default clock is dropped and "
      "retaken after a pause (at most 3 times in a row); 0: keep every sample")(
      "host-memory",
      po::value<std::string>(&host_memory)->default_value(to_string(RunSettings{}.host_memory)),
      "host memory for copies to a device: pageable, pinned or both")(
      "baseline", po::value<std::string>(&o.plan.baseline)->default_value(PlanSettings{}.baseline),
      "plugin that speedups are relative to (its first verified cell of each problem), or one "
      "variant of a plugin: PLUGIN/VARIANT")(
      "device", po::value<int>(&o.isolation.device)->default_value(IsolationSettings{}.device),
      "device index for GPU plugins");
  po::options_description isolation_options("Fault isolation (docs/fault-isolation.md)");
  isolation_options.add_options()(
      "isolation",
      po::value<std::string>(&isolation)->default_value(to_string(IsolationSettings{}.mode)),
      "process: each plugin's cells run in a worker process of its own, so a crash, hang or "
      "sticky CUDA error costs one cell; none: in the harness's own process (for a debugger)")(
      "timeout",
      po::value<std::string>(&numbers[4])
          ->default_value(number_text(IsolationSettings{}.timeout_s, "%g")),
      "seconds a cell (generating its problem, the checked call, warm-up, samples, transfers) may "
      "take before its worker is stopped and the cell recorded as timeout, up to 604800 (a "
      "week); 0: no limit")(
      "max-restarts",
      po::value<int>(&o.isolation.max_restarts)->default_value(IsolationSettings{}.max_restarts),
      "worker restarts per plugin after crashes and timeouts; then its remaining cells are not "
      "run (skipped)")(
      "plugin-output-to-stderr",
      "besides keeping what a plugin's worker writes with its cell (the first lines under the "
      "table and in the results), copy all of it to stderr as it comes: for compute-sanitizer's "
      "reports and debugging");
  po::options_description ranks("MPI ranks (mpirun -np K harness ...; docs/mpi.md)");
  ranks.add_options()(
      "mpi-sync", po::value<std::string>(&mpi_sync)->default_value(to_string(RankSettings{}.sync)),
      "lockstep: every rank starts each cell together, so shared memory, PCIe and network are "
      "measured under the load of the whole job; none: each rank runs its cells alone (a "
      "contention-free check of every GPU)")(
      "per-rank", "besides the spread over the ranks, print every rank's own table")(
      "rank-cpus",
      po::value<std::string>(&rank_cpus)->default_value(to_string(RankSettings{}.cpus)),
      "share: the ranks on a host split its CPUs, each rank's plugins run on its share; "
      "launcher: keep the CPUs the launcher bound each rank to")(
      "outlier-threshold",
      po::value<std::string>(&numbers[3])
          ->default_value(number_text(RankSettings{}.outlier_threshold, "%.2f")),
      "a rank whose median is slower than the ranks' median by more than this fraction (and "
      "whose samples the U test tells apart, p < 0.05) is named slow")(
      "fail-on-slow-rank",
      "exit 6 when every cell is ok but a rank was named slow (for CI); without it a slow rank "
      "is reported and the exit code is 0")(
      "scaling",
      po::value<std::string>(&scaling)->default_value(to_string(DistributedSettings{}.scaling)),
      "distributed workloads (dist_reduce, dist_sort): weak, n per rank; strong, n in total, "
      "split across the ranks")(
      "mpi-staging",
      po::value<std::string>(&staging)->default_value(to_string(DistributedSettings{}.staging)),
      "distributed workloads on a GPU: direct, device buffers passed to a CUDA-aware MPI; host, "
      "staged through pinned host memory; auto, direct where the MPI library says it takes "
      "them");
  po::options_description output("Plugins and output");
  output.add_options()(
      "plugin-dir", po::value<std::vector<std::string>>(&o.plugin_dirs)->composing(),
      "a folder of plugins (repeatable); also searched: $PLUGBENCH_PLUGIN_PATH, the plugins "
      "folder next to the harness, and the installed one")(
      "check-plugin", po::value<std::string>(&o.check_plugin),
      "load one plugin file (PATH.so), print what it declares, check each kernel on small and "
      "awkward sizes (and those --sizes gives) against the references, and stop; exit 0 all "
      "passed, 1 a wrong answer, 2 not a loadable plugin, 3 an error")(
      "json", po::value<std::string>(&o.output.json_path),
      "results file; default: results/<host>-<UTC time>.json under the current folder")(
      "no-json", "do not write a results file")(
      "history", po::value<std::string>(&o.output.history_path),
      "add the finished results file to this history database (harness history --help, "
      "docs/history.md)")(
      "format",
      po::value<std::string>()
          ->default_value(to_string(RunOutputSettings{}.format))
          ->notifier([&o](const std::string& format) {
            o.output.export_format = export_format_named(format);
            o.output.format =
                o.output.export_format ? OutputFormat::console : parse_output_format(format);
          }),
      "tables as console (fixed width), md (markdown) or csv (one header, a line per cell; the "
      "summary goes to stderr); or, on stdout at the end, the run as gbench (Google Benchmark "
      "JSON), bmf or gab (docs/exports.md), the tables on stderr")(
      "list", "list plugins (with why one is unavailable), their kernels, and the workloads")(
      "dry-run", "print the matrix that would run, and stop")(
      "quiet,q", "no progress line on stderr")("version", "print the harness version")("help,h",
                                                                                       "this help");
  po::options_description all;
  all.add(selection).add(measurement).add(isolation_options).add(ranks).add(output);
  return all;
}

}  // namespace

std::string usage_text() {
  Options unused;
  std::vector<std::string> lists(4);
  std::string cache, host_memory, isolation, mpi_sync, rank_cpus, scaling, staging;
  int repetitions = 0;
  NumberTexts numbers;
  std::ostringstream text;
  text << "plugbench harness: runs workloads x sizes x distributions x plugins x variants, timed "
          "and verified.\n\n"
          "usage: harness [options]\n"
          "       harness compare BASE.json NEW.json [MORE.json ...]  (harness compare --help)\n"
          "       harness show FILE.json ...  (harness show --help)\n"
          "       harness export FILE.json --to "
       << names_in(kExportFormatNames, "|")
       << "  (harness export --help)\n"
          "       harness report FILE.json [MORE.json ...] --out DIR  (harness report --help)\n"
          "       harness history add|list|trend|machines|changes ...  (harness history --help)\n"
          "examples:\n"
          "  harness                                  every available plugin, every workload, "
          "default sizes\n"
          "  harness --plugins all --workload histogram\n"
          "  harness --list\n"
          "  harness -w scan,sort -s 2^10..2^24*4 -p openmp,cpu_serial\n\n"
       << describe_options(unused, lists, cache, host_memory, isolation, mpi_sync, rank_cpus,
                           scaling, staging, repetitions, numbers)
       << "\nexit codes: 0 every cell ok (unavailable/unsupported cells are not errors), 1 a "
          "verification failed, 2 usage error, 3 a cell ended in an error, out of memory, a crash "
          "or a "
          "timeout, "
          "4 the results could not be written (or, with --history, not added), 5 interrupted "
          "(SIGINT/SIGTERM; the cells finished "
          "so far "
          "are written, marked incomplete), 6 every cell ok but an MPI rank was named slow "
          "(with --fail-on-slow-rank)\n";
  return text.str();
}

Options parse_options(int argc, const char* const* argv) {
  Options o;
  std::vector<std::string> lists(4);  // plugins, workloads, distributions, variants
  std::string cache, host_memory, isolation, mpi_sync, rank_cpus, scaling, staging;
  int repetitions = 0;
  NumberTexts numbers;
  po::options_description description =
      describe_options(o, lists, cache, host_memory, isolation, mpi_sync, rank_cpus, scaling,
                       staging, repetitions, numbers);
  po::variables_map values;
  try {
    po::parsed_options parsed = po::command_line_parser(argc, argv).options(description).run();
    // The harness takes no positional arguments: a word after a list option's value is most
    // likely a second list item given with a space ("-p cpu_serial openmp").
    for (const std::string& stray :
         po::collect_unrecognized(parsed.options, po::include_positional)) {
      // A word where a subcommand goes (harness shwo a.json) is a mistyped command, not a list.
      if (argc > 1 && stray == argv[1]) {
        throw UsageError("unknown command '" + printable_text(stray) +
                         "': the commands are compare, show, export, report and history; a run "
                         "takes options only (harness --help)");
      }
      throw UsageError("unexpected argument '" + printable_text(stray) +
                       "': the harness takes no arguments besides options; a list is one "
                       "argument with commas (-p cpu_serial,openmp, not -p cpu_serial openmp)");
    }
    po::store(parsed, values);
    po::notify(values);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see harness --help)");
  }
  for (int i = 0; i < argc; ++i) {
    if (i > 0) o.command_line += ' ';
    o.command_line += argv[i];
  }
  // Recorded in the results: an argument such as a file name may be bytes other than UTF-8.
  o.command_line = valid_utf8(o.command_line);
  o.help = values.count("help") > 0;
  o.version = values.count("version") > 0;
  o.list = values.count("list") > 0;
  o.dry_run = values.count("dry-run") > 0;
  o.output.quiet = values.count("quiet") > 0;
  o.isolation.output_to_stderr = values.count("plugin-output-to-stderr") > 0;
  o.output.write_json = values.count("no-json") == 0;
  // An empty path is most often an unset variable in a script (--history "$DB"): refused, not
  // taken as the default file or as no history, which would lose the run's record unnoticed.
  // An empty --check-plugin would run the whole benchmark instead of checking a plugin, and pass.
  for (const char* option : {"json", "history", "check-plugin"}) {
    if (values.count(option) > 0 && values[option].as<std::string>().empty()) {
      const std::string name = option;
      throw UsageError("--" + name + " '' names no file; give a path" +
                       (name == "json" ? " (or leave --json out for results/HOST-TIME.json, or "
                                         "--no-json)"
                        : name == "history" ? " (or leave --history out)"
                                            : " (the plugin library to check)"));
    }
  }
  if (values.count("json") > 0 && !o.output.write_json) {
    throw UsageError(
        "--json names the results file, which --no-json does not write; drop one "
        "of them");
  }
  if (!o.output.history_path.empty() && !o.output.write_json) {
    throw UsageError(
        "--history adds the run's results file, which --no-json does not write; "
        "drop one of them");
  }
  o.plan.baseline_given = !values["baseline"].defaulted();
  o.plan.plugins = split_list(lists[0], "plugins");
  o.plan.workloads = split_list(lists[1], "workload");
  if (values.count("distribution")) o.plan.distributions = split_list(lists[2], "distribution");
  o.plan.variants = split_list(lists[3], "variants");
  if (values.count("repetitions")) {
    if (repetitions < 1) throw UsageError("--repetitions must be at least 1");
    o.measure.repetitions = repetitions;
  }
  for (std::size_t i = 0; i < std::size(kNumberOptions); ++i) {
    const NumberOption& option = kNumberOptions[i];
    std::string why;
    const std::optional<double> value = checked_number(numbers[i], option.rule, why);
    if (!value) {
      throw UsageError("--" + std::string(option.name) + " '" + printable_text(numbers[i]) + "' " +
                       why + " (see harness --help)");
    }
    option.field(o) = *value;
  }
  if (o.measure.warmup < 0) throw UsageError("--warmup cannot be negative");
  if (o.isolation.device < 0) throw UsageError("--device cannot be negative");
  o.device_given = !values["device"].defaulted();
  o.mpi.per_rank = values.count("per-rank") > 0;
  o.mpi.fail_on_slow_rank = values.count("fail-on-slow-rank") > 0;
  o.mpi.sync = mode_named(kMpiSyncNames, mpi_sync, "mpi-sync");
  o.mpi.cpus = mode_named(kRankCpusNames, rank_cpus, "rank-cpus");
  o.distributed.scaling = mode_named(kScalingNames, scaling, "scaling");
  o.distributed.staging = mode_named(kMpiStagingNames, staging, "mpi-staging");
  if (o.isolation.max_restarts < 0) throw UsageError("--max-restarts cannot be negative");
  o.isolation.mode = mode_named(kIsolationModeNames, isolation, "isolation");
  o.measure.cache = mode_named(kCacheModeNames, cache, "cache");
  o.measure.host_memory = mode_named(kHostMemoryModeNames, host_memory, "host-memory");
  return o;
}

}  // namespace plugbench
