// subcommand_options.cpp: option and file parsing shared by the subcommands on results files.
#include "cli/subcommand_options.hpp"

#include "base/usage_error.hpp"

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

}  // namespace plugbench
