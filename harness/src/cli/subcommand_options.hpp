// subcommand_options.hpp: the command line of a subcommand that reads results files
// (`harness show`, `harness compare`): its options, then the files, in any order.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace plugbench {

// Parses `argv` (argv[0] is the subcommand's name) against `visible` plus positional file names;
// returns the parsed values, notifiers run. Throws UsageError pointing at `harness NAME --help`.
boost::program_options::variables_map parse_subcommand(
    int argc, const char* const* argv, const boost::program_options::options_description& visible,
    std::vector<std::string>& files, const std::string& name);

}  // namespace plugbench
