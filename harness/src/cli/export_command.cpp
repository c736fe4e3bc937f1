// export_command.cpp: the export subcommand.
#include "cli/export_command.hpp"

#include "base/output_path.hpp"
#include "base/safe_text.hpp"
#include "base/usage_error.hpp"
#include "cli/subcommand_options.hpp"
#include "results/exports.hpp"
#include "results/results_json.hpp"
#include "results/results_reader.hpp"

#include <boost/program_options.hpp>

#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct ExportOptions {
  std::vector<std::string> files;
  std::string to;
  std::string out;
  ExportErrors errors = ExportErrors::omit;
  GabList list = GabList::time;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  std::string errors_name, list_name;  // as given, checked after the file and --to
  bool help = false;
};

po::options_description describe_export_options(ExportOptions& o) {
  po::options_description options("options");
  options.add_options()("to", po::value<std::string>(&o.to),
                        "gbench (Google Benchmark JSON, for its tools/compare.py), bmf (Bencher "
                        "Metric Format) or gab (github-action-benchmark: a list of times, smaller "
                        "is better, or with --list rate a list of GB/s, bigger is better)")(
      "out", po::value<std::string>(&o.out),
      "the file to write, exactly that path (default: stdout)")(
      "errors",
      po::value<std::string>(&o.errors_name)
          ->default_value(name_in(kExportErrorsNames, ExportOptions{}.errors)),
      "gbench: a cell that did not end ok is left out and listed on stderr (omit: what Google "
      "Benchmark's compare.py needs, since it reads a time from every entry), or an error entry "
      "without a time (entries: for tools that read error_occurred)")(
      "list",
      po::value<std::string>(&o.list_name)
          ->default_value(name_in(kGabListNames, ExportOptions{}.list)),
      "gab: the list written, one per file as the action reads it: time (median kernel ms, "
      "tool customSmallerIsBetter) or rate (GB/s, tool customBiggerIsBetter)")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")("help,h", "this help");
  return options;
}

std::string export_usage() {
  ExportOptions unused;
  std::ostringstream text;
  text << "usage: harness export FILE.json --to " << names_in(kExportFormatNames, "|")
       << " [--out PATH] [--errors " << names_in(kExportErrorsNames, "|") << "] [--list "
       << names_in(kGabListNames, "|")
       << "] [--max-file-mib 64]\n\n"
          "Writes a results file in a format other tools read. Only figures the file holds are "
          "written: a cell that did not end ok is left out and listed on stderr (with gbench "
          "--errors entries: an error entry), never a time. docs/exports.md has the mapping.\n\n"
       << describe_export_options(unused)
       << "\nexit codes: 0 written, 2 usage error or a file that is not a readable results file, "
          "4 the output could not be written\n";
  return text.str();
}

// Writes the export to `path`, or to stdout where it is empty: `produce` hands the text over in
// pieces (a gbench export, an entry per repetition, can be many times the file).
void write_export(const std::function<void(const TextSink& put)>& produce,
                  const std::string& path) {
  if (path.empty()) {
    produce([](std::string_view piece) { std::cout << piece; });
    if (!std::cout.flush()) {
      throw std::runtime_error(
          "could not write to stdout (a full disk, a closed stdout, or a reader that went away)");
    }
    return;
  }
  if (std::string problem = results_path_problem(path, "--out"); !problem.empty()) {
    throw std::runtime_error(problem);
  }
  write_pieces_atomically(path, produce);
}

}  // namespace

int run_export(int argc, const char* const* argv) {
  ExportOptions options;
  std::optional<ExportFormat> format;
  try {
    po::variables_map values =
        parse_subcommand(argc, argv, describe_export_options(options), options.files, "export");
    options.help = values.count("help") > 0;
    if (!options.help) {
      if (options.files.size() != 1) throw UsageError("export needs one results file");
      check_max_file_mib(options.max_file_mib);
      if (!options.out.empty() && same_file(options.out, options.files[0])) {
        throw UsageError("--out '" + printable_text(options.out) +
                         "' is the results file being exported, which the export would "
                         "replace; name another file");
      }
      format = export_format_named(options.to);
      if (!format) {
        throw UsageError("--to '" + options.to +
                         "' is not one of: " + names_in(kExportFormatNames));
      }
      const std::optional<ExportErrors> errors =
          value_named(kExportErrorsNames, options.errors_name);
      if (!errors) {
        throw UsageError("--errors '" + options.errors_name +
                         "' is not one of: " + names_in(kExportErrorsNames));
      }
      options.errors = *errors;
      const std::optional<GabList> list = value_named(kGabListNames, options.list_name);
      if (!list) {
        throw UsageError("--list '" + options.list_name +
                         "' is not one of: " + names_in(kGabListNames));
      }
      options.list = *list;
      // An option the format has no use for would be dropped without a word: refused instead
      // (--errors omit is what every other format does anyway, so only entries is).
      if (options.errors == ExportErrors::entries && *format != ExportFormat::gbench) {
        throw UsageError("--errors is for --to gbench (" + options.to +
                         " has no error entry: it leaves out a cell that did not end ok and "
                         "lists it on stderr); leave --errors out");
      }
      if (!values["list"].defaulted() && *format != ExportFormat::gab) {
        throw UsageError("--list is for --to gab (" + options.to +
                         " writes a cell's time and rate in one entry); leave --list out");
      }
    }
  } catch (const UsageError& e) {
    std::cerr << "harness export: " << e.what() << "\n";
    return kExportInputError;
  }
  if (options.help) {
    std::cout << export_usage();
    return kExportDone;
  }
  ResultsFile file;
  nlohmann::json document;
  try {
    file = read_results_file(options.files[0], options.max_file_mib << 20);
    // Checked (its folder made) before anything is written, as every output path is.
    if (!options.out.empty()) {
      if (std::string problem = prepare_output_file(options.out, "--out"); !problem.empty()) {
        std::cerr << "harness export: " << problem << "\n";
        return kExportInputError;
      }
    }
    if (*format == ExportFormat::gbench) {
      // Written an entry at a time, below.
    } else if (*format == ExportFormat::gab) {
      document = gab_document(
          file)[options.list == GabList::time ? "smaller_is_better" : "bigger_is_better"];
    } else {
      document = export_document(file, *format);
    }
  } catch (const ResultsFileError& e) {
    std::cerr << "harness export: " << e.what() << "\n";
    return kExportInputError;
  }
  // What show marks and compare refuses to vouch for is said here too: the export itself has no
  // field for it.
  if (!file.context.complete) {
    std::cerr << "harness export: warning: " << printable_text(file.path)
              << " is incomplete (its run was stopped before the end): the export holds only the "
                 "cells it finished\n";
  }
  for (const std::string& line : cells_suspect(file)) {
    std::cerr << "harness export: SUSPECT (exported; faster than the measured peak allows): "
              << printable_text(line) << "\n";
  }
  const bool error_entries =
      *format == ExportFormat::gbench && options.errors == ExportErrors::entries;
  const std::vector<std::string> not_ok = cells_left_out(file);
  for (const std::string& line : not_ok) {
    std::cerr << "harness export: " << (error_entries ? "as an error entry: " : "left out: ")
              << printable_text(line) << "\n";
  }
  if (error_entries && !not_ok.empty()) {
    std::cerr << "harness export: Google Benchmark's compare.py stops at an entry without a "
                 "time; leave --errors out (omit) for it\n";
  }
  try {
    write_export(
        [&](const TextSink& put) {
          if (*format == ExportFormat::gbench) {
            write_gbench(file, error_entries, put);
          } else {
            put(document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
          }
        },
        options.out);
  } catch (const std::exception& e) {
    std::cerr << "harness export: " << e.what() << "\n";
    return kExportOutputError;
  }
  return kExportDone;
}

}  // namespace plugbench
