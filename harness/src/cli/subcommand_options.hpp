// subcommand_options.hpp: the command line of a subcommand that reads results files
// (`harness show`, `harness compare`): its options, then the files, in any order.
#pragma once

#include "analyze/compare_cells.hpp"

#include <boost/program_options.hpp>

#include <cstdint>

#include <string>
#include <vector>

namespace plugbench {

// Parses `argv` (argv[0] is the subcommand's name) against `visible` plus positional file names;
// returns the parsed values, notifiers run. Throws UsageError pointing at `harness NAME --help`.
boost::program_options::variables_map parse_subcommand(
    int argc, const char* const* argv, const boost::program_options::options_description& visible,
    std::vector<std::string>& files, const std::string& name);

// Throw UsageError unless --max-file-mib is from 1 to kMaxFileMibLimit, and unless --threshold
// is not negative and --alpha between 0 and 1 (compare, and report's comparison).
void check_max_file_mib(std::uint64_t max_file_mib);
void check_compare_settings(const CompareSettings& settings);

}  // namespace plugbench
