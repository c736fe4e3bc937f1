// plugin_loader.cpp: loading with Boost.DLL, the ABI check and the probe.
#include "load/plugin_loader.hpp"

#include "base/safe_text.hpp"
#include "base/stdout_diversion.hpp"
#include "load/library_checksum.hpp"
#include "load/plugin_names.hpp"
#include "load/plugin_screening.hpp"
#include "load/plugin_text.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <sys/stat.h>

#include <filesystem>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string_view>

namespace plugbench {
namespace {

namespace fs = std::filesystem;

// Libraries are never unloaded: a .so with registered CUDA kernels or live OpenMP threads crashes
// the process if it is closed before exit. The list is leaked on purpose.
std::vector<boost::dll::shared_library>& loaded_libraries() {
  static auto* libraries = new std::vector<boost::dll::shared_library>();
  return *libraries;
}

std::string abi_text(unsigned major, unsigned minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

// The smallest struct sizes an ABI 1.0 plugin can have: everything up to the last 1.0 field.
constexpr std::size_t kMinPluginSize = offsetof(pb_plugin, kernel_count) + sizeof(std::uint32_t);
constexpr std::size_t kMinKernelSize = offsetof(pb_kernel, run) + sizeof(void*);

std::string clean_dlerror(std::string text) {
  // Boost.DLL wraps dlerror's text; keep what the dynamic loader said.
  const std::string marker = "dlerror system message: ";
  if (auto at = text.find(marker); at != std::string::npos) {
    text = text.substr(at + marker.size());
    // What follows the closing parenthesis is Boost's generic error code ("Bad file descriptor").
    if (auto close = text.rfind(')'); close != std::string::npos) text.erase(close);
  }
  return text;
}

// A plugin's string field as read for a name: at most one byte past the longest valid name, so
// that a name without its NUL costs no more than that.
std::string_view name_field(const char* text) {
  return text ? std::string_view(text, strnlen(text, kMaxNameBytes + 1)) : std::string_view();
}

// Checks the table and copies what the harness needs; returns an empty string or the reason.
std::string accept_table(const pb_plugin* table, PluginRecord& record) {
  if (table->abi_major != PB_ABI_MAJOR) {
    return "plugin ABI " + abi_text(table->abi_major, table->abi_minor) +
           " but this harness speaks " + abi_text(PB_ABI_MAJOR, PB_ABI_MINOR) +
           ": the major versions differ; rebuild the plugin against this harness's SDK";
  }
  if (table->abi_minor > PB_ABI_MINOR) {
    return "plugin ABI " + abi_text(table->abi_major, table->abi_minor) +
           " is newer than this harness's " + abi_text(PB_ABI_MAJOR, PB_ABI_MINOR) +
           ": update the harness, or rebuild the plugin against this harness's SDK";
  }
  if (table->struct_size < kMinPluginSize) {
    return "plugin table is " + std::to_string(table->struct_size) + " bytes, smaller than the " +
           std::to_string(kMinPluginSize) + " bytes of ABI 1.0: not built with plugin_api.h";
  }
  if (!valid_plugin_name(name_field(table->name))) {
    return "plugin name must be 1 to " + std::to_string(kMaxNameBytes) +
           " lower-case letters, digits and '_' (got " +
           (table->name ? "'" + printable_text(name_field(table->name)) + "'" : "NULL") + ")";
  }
  record.name = std::string(name_field(table->name));
  record.version = plugin_string(table->version);
  record.description = plugin_string(table->description);
  record.abi_major = table->abi_major;
  record.abi_minor = table->abi_minor;
  // Any value but PB_MEMORY_DEVICE is host memory, as the files and tables have always named it.
  record.memory_space =
      table->memory_space == PB_MEMORY_DEVICE ? MemorySpace::device : MemorySpace::host;
  for (std::uint32_t i = 0; i < table->build_info_count && table->build_info; ++i) {
    const pb_build_entry& entry = table->build_info[i];
    record.build_info.emplace_back(plugin_string(entry.key), plugin_string(entry.value));
  }
  const char* required[] = {"probe",   "open",        "close",      "alloc",
                            "release", "copy_in",     "copy_out",   "copy_within",
                            "sync",    "timer_start", "timer_stop", "alloc_host"};
  const void* pointers[] = {reinterpret_cast<const void*>(table->probe),
                            reinterpret_cast<const void*>(table->open),
                            reinterpret_cast<const void*>(table->close),
                            reinterpret_cast<const void*>(table->alloc),
                            reinterpret_cast<const void*>(table->release),
                            reinterpret_cast<const void*>(table->copy_in),
                            reinterpret_cast<const void*>(table->copy_out),
                            reinterpret_cast<const void*>(table->copy_within),
                            reinterpret_cast<const void*>(table->sync),
                            reinterpret_cast<const void*>(table->timer_start),
                            reinterpret_cast<const void*>(table->timer_stop),
                            reinterpret_cast<const void*>(table->alloc_host)};
  for (std::size_t i = 0; i < std::size(required); ++i) {
    if (pointers[i] == nullptr)
      return std::string("plugin table has no '") + required[i] + "' function";
  }
  if (table->release_host == nullptr) return "plugin table has no 'release_host' function";
  if (table->kernel_count > 0 && table->kernels == nullptr)
    return "plugin lists kernels but no table";
  for (std::uint32_t i = 0; i < table->kernel_count; ++i) {
    const pb_kernel& kernel = table->kernels[i];
    if (kernel.struct_size < kMinKernelSize) {
      return "kernel " + std::to_string(i) + " is " + std::to_string(kernel.struct_size) +
             " bytes, smaller than ABI 1.0's pb_kernel";
    }
    if (!kernel.workload || !kernel.variant || !kernel.run) {
      return "kernel " + std::to_string(i) + " lacks a workload, a variant or a run function";
    }
    for (const char* name : {kernel.workload, kernel.variant}) {
      if (std::string why = kernel_name_problem(name_field(name)); !why.empty()) {
        return "kernel " + std::to_string(i) + " is named '" + printable_text(name_field(name)) +
               "': " + why;
      }
    }
    const std::string workload(name_field(kernel.workload));
    const std::string variant(name_field(kernel.variant));
    for (const KernelRecord& seen : record.kernels) {
      if (seen.workload == workload && seen.variant == variant) {
        return "two kernels named " + seen.workload + "/" + seen.variant;
      }
    }
    record.kernels.push_back({workload, variant, plugin_string(kernel.description), kernel.flags,
                              kernel.max_n, &kernel});
  }
  record.table = table;
  return "";
}

}  // namespace

namespace {

// Loaded here only after a child loaded and probed it without hanging or crashing.
PluginRecord screened_plugin(const std::string& path, const std::string& found_in) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    PluginRecord record;
    record.path = path;
    record.found_in = found_in;
    record.name = fs::path(path).filename().string();
    record.reason =
        "not a regular file (a FIFO, device or folder named like a library): skipped "
        "without opening it";
    return record;
  }
  PluginRecord screened = screen_plugin(path, found_in, discovery_timeout_s());
  if (screened.state == PluginState::broken) return screened;
  // The child just ran the same static constructors and entry, and reported what they printed.
  PluginRecord record = [&] {
    const StdoutDiversion quiet = StdoutDiversion::to_null();
    return load_plugin(path, found_in, /*call_probe=*/false);
  }();
  if (record.state == PluginState::broken) return record;
  record.state = screened.state;  // the child's probe decided
  record.library_checksum = library_checksum(path);
  record.reason = screened.reason;
  return record;
}

}  // namespace

const char* to_string(PluginState state) {
  switch (state) {
    case PluginState::available:
      return "available";
    case PluginState::unavailable:
      return "unavailable";
    case PluginState::broken:
      return "broken";
  }
  return "?";
}

const KernelRecord* PluginRecord::find_kernel(const std::string& workload,
                                              const std::string& variant) const {
  for (const KernelRecord& kernel : kernels) {
    if (kernel.workload == workload && kernel.variant == variant) return &kernel;
  }
  return nullptr;
}

std::vector<PluginFolder> plugin_search_path(const std::vector<std::string>& user_folders) {
  std::vector<PluginFolder> folders;
  for (const std::string& folder : user_folders) folders.push_back({folder, "--plugin-dir", true});
  if (const char* env = std::getenv("PLUGBENCH_PLUGIN_PATH"); env && *env) {
    std::stringstream list(env);
    std::string folder;
    while (std::getline(list, folder, ':')) {
      if (!folder.empty()) folders.push_back({folder, "PLUGBENCH_PLUGIN_PATH", true});
    }
  }
  fs::path exe_dir = fs::path(boost::dll::program_location()).parent_path();
  folders.push_back({(exe_dir / "plugins").string(), "next to the harness", false});
  folders.push_back(
      {(exe_dir.parent_path() / "lib" / "plugbench" / "plugins").string(), "installed", false});
  return folders;
}

PluginRecord load_plugin(const std::string& path, const std::string& found_in, bool call_probe) {
  PluginRecord record;
  record.path = path;
  record.found_in = found_in;
  record.name = fs::path(path).filename().string();

  boost::dll::shared_library library;
  try {
    library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    record.reason = "cannot be loaded as a shared library: " + clean_dlerror(e.what());
    return record;
  }
  if (!library.has(PB_ENTRY_SYMBOL)) {
    record.reason = std::string("not a plugbench plugin: no '") + PB_ENTRY_SYMBOL +
                    "' symbol (define it with PLUGBENCH_PLUGIN from plugbench/plugin_sdk.hpp)";
    loaded_libraries().push_back(std::move(library));
    return record;
  }
  // The symbol is a variable holding the entry function's address (a Boost.DLL alias).
  pb_entry_fn entry = library.get<pb_entry_fn>(PB_ENTRY_SYMBOL);
  loaded_libraries().push_back(std::move(library));
  if (entry == nullptr) {
    record.reason = std::string("the '") + PB_ENTRY_SYMBOL + "' symbol holds a null entry";
    return record;
  }

  char message[1024] = "";
  pb_error error{message, sizeof message};
  const pb_plugin* table = entry(PB_ABI_MAJOR, PB_ABI_MINOR, &error);
  if (table == nullptr) {
    const std::string said = bounded_text(message, sizeof message);
    record.reason =
        "the entry returned no plugin table" + (said.empty() ? std::string() : ": " + said);
    return record;
  }
  if (std::string reason = accept_table(table, record); !reason.empty()) {
    record.reason = reason;
    record.table = nullptr;
    return record;
  }

  if (!call_probe) {
    record.state = PluginState::available;
    return record;
  }
  message[0] = '\0';
  pb_status probe = table->probe(&error);
  if (probe == PB_OK) {
    record.state = PluginState::available;
  } else {
    record.state = PluginState::unavailable;
    const std::string said = bounded_text(message, sizeof message);
    record.reason = said.empty() ? "the probe failed without saying why" : said;
  }
  return record;
}

std::vector<PluginRecord> discover_plugins(const std::vector<PluginFolder>& folders) {
  std::vector<PluginRecord> plugins;
  std::map<std::string, std::string> seen_files;  // canonical path -> folder it came from
  for (const PluginFolder& folder : folders) {
    std::error_code error;
    if (!fs::is_directory(folder.path, error)) {
      if (folder.must_exist) {
        throw PluginFolderError("plugin folder '" + printable_text(folder.path) + "' (from " +
                                folder.origin + ") does not exist or is not a folder");
      }
      continue;
    }
    std::vector<std::string> files;
    fs::directory_iterator it(folder.path, error);
    if (error) {
      throw PluginFolderError("cannot read plugin folder '" + folder.path + "' (from " +
                              folder.origin + "): " + error.message());
    }
    for (; it != fs::directory_iterator(); it.increment(error)) {
      if (error) break;
      if (it->path().extension() == ".so") files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files) {
      std::string canonical = fs::weakly_canonical(file, error).string();
      if (seen_files.count(canonical)) continue;  // the same file through two folders
      seen_files[canonical] = folder.path;
      PluginRecord record = screened_plugin(file, folder.path + " (" + folder.origin + ")");
      // Recorded (and loaded by workers) by its absolute path: a results file names the library
      // whatever folder the harness ran in; a broken one keeps the file name it was found under.
      if (!canonical.empty()) record.path = canonical;
      for (const PluginRecord& earlier : plugins) {
        if (record.state != PluginState::broken && earlier.state != PluginState::broken &&
            earlier.name == record.name) {
          record.state = PluginState::broken;
          record.reason = "a plugin named '" + record.name + "' was already loaded from " +
                          earlier.path + "; this one is ignored";
          record.table = nullptr;
          record.library_checksum.clear();  // ignored: its code runs nowhere
          break;
        }
      }
      plugins.push_back(std::move(record));
    }
  }
  return plugins;
}

}  // namespace plugbench
