// plugin_loader.hpp: finds plugin libraries, loads them with Boost.DLL (never unloaded), checks the
// ABI and probes them. A file that fails any step is kept as a record with the exact reason.
#pragma once

#include "base/memory_space.hpp"

#include <plugbench/plugin_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {

enum class PluginState {
  available,    // loaded, ABI accepted, probe says it can run here
  unavailable,  // loaded, but the probe says it cannot run here (no driver, no device)
  broken        // not loadable as a plugin: the reason says why
};

const char* to_string(PluginState state);

// One kernel as the harness sees it (copied out of the plugin's table).
struct KernelRecord {
  std::string workload;
  std::string variant;
  std::string description;
  std::uint32_t flags = 0;
  std::uint64_t max_n = 0;
  const pb_kernel* table = nullptr;
};

struct PluginRecord {
  std::string path;  // the library file
  // Its bytes' checksum ("crc32:..."), taken where discovery loads it; "" where not taken.
  std::string library_checksum;
  std::string found_in;  // the folder it was found in, and how that folder was named
  std::string name;      // the plugin's own name; the file name when it is broken
  std::string version;
  std::string description;
  PluginState state = PluginState::broken;
  std::string reason;  // why it is broken or unavailable
  std::uint16_t abi_major = 0;
  std::uint16_t abi_minor = 0;
  std::vector<std::pair<std::string, std::string>> build_info;
  MemorySpace memory_space = MemorySpace::host;
  const pb_plugin* table = nullptr;  // valid for the whole process once loaded
  std::vector<KernelRecord> kernels;

  const KernelRecord* find_kernel(const std::string& workload, const std::string& variant) const;
};

// A folder to search and where it came from ("--plugin-dir", "PLUGBENCH_PLUGIN_PATH", "default").
struct PluginFolder {
  std::string path;
  std::string origin;
  bool must_exist = false;  // folders the user named must exist; default ones may not
};

class PluginFolderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The folders to search: the user's --plugin-dir ones, then $PLUGBENCH_PLUGIN_PATH (colon list),
// then the plugins folder next to the executable and the installed one (../lib/plugbench/plugins).
std::vector<PluginFolder> plugin_search_path(const std::vector<std::string>& user_folders);

// Loads one library and checks it; never throws. Without `call_probe` an accepted plugin is
// `available`: its probe was called elsewhere (discovery screens every library in a child).
PluginRecord load_plugin(const std::string& path, const std::string& found_in,
                         bool call_probe = true);

// Every .so in the folders, loaded and probed, in folder order then file-name order. Each is
// loaded and probed first in a child process (load/plugin_screening.hpp): one that hangs past
// PLUGBENCH_DISCOVERY_TIMEOUT or crashes there is broken and never loaded here; a file that is not
// a regular file (a FIFO named lib*.so) is broken without being opened. A second
// plugin with a name already taken is marked broken. Throws PluginFolderError when a folder the
// user named cannot be read.
std::vector<PluginRecord> discover_plugins(const std::vector<PluginFolder>& folders);

}  // namespace plugbench
