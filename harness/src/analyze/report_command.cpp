// report_command.cpp: the report subcommand: its options, the files read, the page written.
#include "analyze/report_command.hpp"

#include "analyze/report_page.hpp"
#include "cli/subcommand_options.hpp"
#include "cli/usage_error.hpp"
#include "record/output_path.hpp"
#include "record/results_json.hpp"
#include "record/results_reader.hpp"
#include "record/safe_text.hpp"

#include <boost/program_options.hpp>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string out;
  CompareSettings settings;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  bool help = false;
};

po::options_description describe_report_options(ReportOptions& o) {
  po::options_description options("options");
  options.add_options()("out", po::value<std::string>(&o.out),
                        "the folder to write index.html into (made where missing)")(
      "threshold", po::value<double>(&o.settings.threshold)->default_value(0.05, "0.05"),
      "as in harness compare: medians within this fraction of each other are the same")(
      "alpha", po::value<double>(&o.settings.alpha)->default_value(0.05, "0.05"),
      "as in harness compare: significance level of the Mann-Whitney U test")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")("help,h", "this help");
  return options;
}

std::string report_usage() {
  ReportOptions unused;
  std::ostringstream text;
  text
      << "usage: harness report FILE.json [MORE.json ...] --out DIR\n\n"
         "Writes DIR/index.html: one page, readable offline (no script, nothing fetched), with "
         "each file's machine and build, its tables as harness show prints them, charts of "
         "GB/s and speedup against size per workload, and the CPU/GPU crossover; with more "
         "than one file, each later file compared with the first as harness compare does. A "
         "cell that did not run and verify is marked, never drawn as a figure. See "
         "docs/exports.md.\n\n"
      << describe_report_options(unused)
      << "\nexit codes: 0 written, 2 usage error (an --out that cannot be a folder, refused before "
         "the page is made) or a file that is not a readable results file, 4 the page could not "
         "be written\n";
  return text.str();
}

ReportOptions parse_report_options(int argc, const char* const* argv) {
  ReportOptions o;
  po::options_description visible = describe_report_options(o);
  po::variables_map values = parse_subcommand(argc, argv, visible, o.files, "report");
  o.help = values.count("help") > 0;
  if (o.help) return o;
  if (o.files.empty()) throw UsageError("report needs a results file (or more)");
  if (o.out.empty()) throw UsageError("report needs --out DIR, the folder for index.html");
  check_max_file_mib(o.max_file_mib);
  check_compare_settings(o.settings);
  return o;
}

}  // namespace

int run_report(int argc, const char* const* argv) {
  ReportOptions options;
  try {
    options = parse_report_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "harness report: " << e.what() << "\n";
    return kReportInputError;
  }
  if (options.help) {
    std::cout << report_usage();
    return kReportDone;
  }
  std::string page;
  try {
    std::vector<ResultsFile> files;
    for (const std::string& path : options.files) {
      files.push_back(read_results_file(path, options.max_file_mib << 20));
    }
    // The folder is made (or refused) before the page, as every output path is before the work;
    // after the files were read, so that bad input leaves nothing behind.
    if (std::string problem = prepare_output_folder(options.out, "--out"); !problem.empty()) {
      std::cerr << "harness report: " << problem << "\n";
      return kReportInputError;
    }
    page = report_page(files, options.settings);
  } catch (const ResultsFileError& e) {
    std::cerr << "harness report: " << printable_text(e.what()) << "\n";
    return kReportInputError;
  }
  const std::string path = (std::filesystem::path(options.out) / "index.html").string();
  try {
    write_text_atomically(page, path);
  } catch (const std::exception& e) {
    std::cerr << "harness report: " << printable_text(e.what()) << "\n";
    return kReportOutputError;
  }
  std::cerr << "harness report: wrote " << printable_text(path) << " (" << page.size()
            << " bytes)\n";
  return kReportDone;
}

}  // namespace plugbench
