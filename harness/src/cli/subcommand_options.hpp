// subcommand_options.hpp: the command line of a subcommand that reads results files
// (`harness show`, `harness compare`): its options, then the files, in any order.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace plugbench {

// Parses `argv` (argv[0] is the subcommand's name) against `visible` plus positional file names;
// returns the parsed values, notifiers run. Throws UsageError pointing at `harness NAME --help`.
// Refuses an option of `values` given an empty text (a switch aside): most often an unset
// variable in a script, which would otherwise mean the default, or nothing, without a word.
// `command` is what --help follows in the message ("harness compare"). Throws UsageError.
void refuse_empty_values(const boost::program_options::variables_map& values,
                         const boost::program_options::options_description& described,
                         const std::string& command);

boost::program_options::variables_map parse_subcommand(
    int argc, const char* const* argv, const boost::program_options::options_description& visible,
    std::vector<std::string>& files, const std::string& name);

}  // namespace plugbench
