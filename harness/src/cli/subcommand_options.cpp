// subcommand_options.cpp: option and file parsing shared by the subcommands on results files.
#include "cli/subcommand_options.hpp"

#include "base/usage_error.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;

namespace {

// Refuses an option given an empty text (a switch aside); `command` is what --help follows.
void refuse_empty_values(const po::variables_map& values, const po::options_description& described,
                         const std::string& command) {
  // An option given an empty text ("--history \"$DB\"" with DB unset) would mean its default,
  // or nothing, without a word: no option takes "" for a value.
  for (const auto& [option, value] : values) {
    if (option == "files" || value.defaulted()) continue;
    // A switch (--help) takes no value: it is stored as an empty text.
    const po::option_description* option_described = described.find_nothrow(option, false);
    if (option_described && option_described->semantic()->max_tokens() == 0) continue;
    const auto* text = boost::any_cast<std::string>(&value.value());
    const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value());
    const bool empty = (text && text->empty()) ||
                       (texts && std::any_of(texts->begin(), texts->end(),
                                             [](const std::string& each) { return each.empty(); }));
    if (empty) {
      throw UsageError("--" + option +
                       " was given an empty value, which names nothing; give it one (see " +
                       command + " --help)");
    }
  }
}

}  // namespace

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
  refuse_empty_values(values, all, "harness " + name);
  return values;
}

}  // namespace plugbench
