// show_command.cpp: the show subcommand: reads results files back and prints their tables.
#include "cli/show_command.hpp"

#include "analyze/crossover.hpp"
#include "analyze/file_tables.hpp"
#include "base/output_check.hpp"
#include "base/usage_error.hpp"
#include "cli/subcommand_options.hpp"
#include "render/text_table.hpp"
#include "results/results_reader.hpp"

#include <boost/program_options.hpp>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct ShowOptions {
  std::vector<std::string> files;
  OutputFormat format = OutputFormat::console;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  bool help = false;
};

po::options_description describe_show_options(ShowOptions& o) {
  po::options_description options("options");
  options.add_options()(
      "format",
      po::value<std::string>()
          ->default_value(to_string(o.format))
          ->notifier([&o](const std::string& format) { o.format = parse_output_format(format); }),
      "console, md (markdown) or csv (a line per cell, with the file as the first column; the "
      "rest goes to stderr)")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")("help,h", "this help");
  return options;
}

std::string show_usage() {
  ShowOptions unused;
  std::ostringstream text;
  text << "usage: harness show FILE.json [MORE.json ...]\n\n"
          "Prints results files the way their runs printed them: which machine, build and "
          "command made the file, a table per problem (time, GB/s, % of peak, speedup, "
          "verified), the summary line and the crossover. Nothing is run or measured.\n\n"
       << describe_show_options(unused)
       << "\nexit codes: 0 shown, 2 usage error or a file that is not a readable results file (not "
          "a regular file, larger than --max-file-mib, not JSON, or not a results file), 4 stdout "
          "could not be written\n";
  return text.str();
}

ShowOptions parse_show_options(int argc, const char* const* argv) {
  ShowOptions o;
  po::options_description visible = describe_show_options(o);
  po::variables_map values = parse_subcommand(argc, argv, visible, o.files, "show");
  o.help = values.count("help") > 0;
  if (!o.help && o.files.empty()) throw UsageError("show needs a results file (or more)");
  check_max_file_mib(o.max_file_mib);
  return o;
}

void show_file(const ResultsFile& file, const std::vector<StoredProblem>& problems,
               OutputFormat format, TableWriter& tables) {
  bool csv = format == OutputFormat::csv;
  // As in a run: with CSV, stdout holds the cells alone.
  std::ostream& text = csv ? std::cerr : std::cout;
  OutputFormat text_format = csv ? OutputFormat::console : format;
  FileTables shown = file_tables(file, problems);
  if (!csv) {
    TableWriter(text, text_format).write(shown.run);
    text << "\n";
  }
  for (TextTable& table : shown.problems) {
    table.context.insert(table.context.begin(), {"file", file.path});
    tables.write(table);
  }
  text << "\n" << shown.summary << "\n" << shown.slow_ranks;
  if (!shown.crossovers.empty()) {
    TableWriter(text, text_format).write(crossover_table(shown.crossovers));
  }
}

}  // namespace

int run_show(int argc, const char* const* argv) {
  ShowOptions options;
  try {
    options = parse_show_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "harness show: " << e.what() << "\n";
    return kShowInputError;
  }
  if (options.help) {
    std::cout << show_usage();
    return kShowDone;
  }
  // Every file is read before anything is printed: a bad one is reported alone, not after pages.
  std::vector<ResultsFile> files;
  std::vector<std::vector<StoredProblem>> problems;
  try {
    for (const std::string& path : options.files) {
      files.push_back(read_results_file(path, options.max_file_mib << 20));
      problems.push_back(problems_of(std::move(files.back().cells)));
    }
  } catch (const ResultsFileError& e) {
    std::cerr << "harness show: " << e.what() << "\n";
    return kShowInputError;
  }
  TableWriter tables(std::cout, options.format);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i > 0 && options.format != OutputFormat::csv) std::cout << "\n";
    show_file(files[i], problems[i], options.format, tables);
  }
  return output_written(std::cout, "harness show") ? kShowDone : kShowOutputError;
}

}  // namespace plugbench
