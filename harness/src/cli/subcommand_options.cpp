// subcommand_options.cpp: option and file parsing shared by the subcommands on results files.
#include "cli/subcommand_options.hpp"

#include "base/checked_number.hpp"
#include "cli/options.hpp"
#include "record/results_reader.hpp"

namespace plugbench {
namespace po = boost::program_options;

po::variables_map parse_subcommand(int argc, const char* const* argv,
                                   const po::options_description& visible,
                                   std::vector<std::string>& files, const std::string& name) {
  po::options_description all;
  all.add(visible).add_options()("files", po::value<std::vector<std::string>>(&files));
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(),
              values);
    po::notify(values);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see harness " + name + " --help)");
  }
  return values;
}

void check_max_file_mib(std::uint64_t max_file_mib) {
  if (max_file_mib < 1 || max_file_mib > kMaxFileMibLimit) {
    throw UsageError("--max-file-mib must be from 1 to " + std::to_string(kMaxFileMibLimit));
  }
}

void check_compare_settings(const CompareSettings& settings) {
  // Boost reads nan and inf; the harness's one rule for numbers refuses them (a fraction up to
  // 100, i.e. 10000 %, for the threshold).
  if (std::string why = number_problem(settings.threshold, {0, 100, false, false, ""});
      !why.empty()) {
    throw UsageError("--threshold " + why + " (a fraction: 0.05 for 5 %)");
  }
  if (std::string why = number_problem(settings.alpha, {0, 1, true, true, ""}); !why.empty()) {
    throw UsageError("--alpha " + why + " (between 0 and 1, e.g. 0.05)");
  }
}

}  // namespace plugbench
