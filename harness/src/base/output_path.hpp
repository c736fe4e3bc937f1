// output_path.hpp: the check every output path gets before any work (the first cell of a run,
// the first file read by a subcommand), so that nothing ends, after the work, in a path that
// cannot be written: missing folders are made then, and a path that cannot work is refused then.
#pragma once

#include <string>

namespace plugbench {

// Makes the folders above the file `path` where missing. Returns "" when the file can be written
// there, else what is wrong and what to do, naming `option` (e.g. "--json"): a name that is a
// folder ("new/", or an existing folder), a device, FIFO or socket; a folder above it that is a
// file; a folder that cannot be made or written in.
std::string prepare_output_file(const std::string& path, const std::string& option);

// The same for a folder that files are written into (made, with its parents, where missing).
std::string prepare_output_folder(const std::string& folder, const std::string& option);

// Whether both paths name one file: through links or other spellings where both exist, by any
// spelling of one path (./run.json, run.json) where either is not there yet. An output that is
// also an input would be replaced before, or while, it is read.
bool same_file(const std::string& a, const std::string& b);

}  // namespace plugbench
