// hostile_text.cpp: a reduce plugin whose words are hostile, for tests/harness/test_hostile_io.cpp.
// One library serves every case; environment variables, read when the harness loads it, choose:
//   PLUGBENCH_HOSTILE_ENTRY=unterminated  the entry fills its whole message buffer, with no NUL,
//                                         and returns no table
//   PLUGBENCH_HOSTILE_TEXT=invalid_utf8   version, description, a kernel's description and a
//                                         build fact hold bytes that are not UTF-8
//   PLUGBENCH_HOSTILE_VARIANT=NAME        the first kernel's variant is NAME (any bytes)
// Its opt-in kernels misbehave as their names say; "hostile" itself is a correct reduce.
#include <plugbench/host_services.hpp>
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void reduce(plugbench::sdk::Call& call) {
  const std::int32_t* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;
}

// Stands in for the kernels below until the entry swaps in their raw run functions.
void replaced_at_entry(plugbench::sdk::Call&) {}

PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "hostile", .description = "correct", .run = reduce});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "unterminated_error",
                  .description = "fills the error buffer to its last byte, no NUL",
                  .run = replaced_at_entry,
                  .flags = PB_KERNEL_OPT_IN});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "invalid_utf8_error",
                  .description = "fails with a message that is not UTF-8",
                  .run = replaced_at_entry,
                  .flags = PB_KERNEL_OPT_IN});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "crash_mid_character",
                  .description = "prints a long line whose 300th byte starts a character, aborts",
                  .run = replaced_at_entry,
                  .flags = PB_KERNEL_OPT_IN});

pb_status fill_without_nul(const pb_kernel*, void*, const pb_problem*, const pb_buffers*,
                           pb_error* error) {
  std::memset(error->message, 'x', error->capacity);
  return PB_ERROR;
}

pb_status fail_in_latin1(const pb_kernel*, void*, const pb_problem*, const pb_buffers*,
                         pb_error* error) {
  std::snprintf(error->message, error->capacity, "%s", "caf\xe9 \xff\xfe broke");
  return PB_ERROR;
}

// 299 ASCII bytes, then "é" (0xc3 0xa9): a cut at 300 bytes falls inside the character.
pb_status crash_mid_character(const pb_kernel*, void*, const pb_problem*, const pb_buffers*,
                              pb_error*) {
  std::string line(299, 'a');
  line += "\xc3\xa9 and more\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

const char* setting(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

const pb_plugin* hostile_entry(std::uint16_t major, std::uint16_t, pb_error* error) {
  if (std::string(setting("PLUGBENCH_HOSTILE_ENTRY")) == "unterminated") {
    std::memset(error->message, 'y', error->capacity);
    return nullptr;
  }
  const bool invalid_utf8 = std::string(setting("PLUGBENCH_HOSTILE_TEXT")) == "invalid_utf8";
  const pb_plugin* table = plugbench::sdk::entry<plugbench::sdk::HostServices>(
      {.name = "fake_hostile",
       .version = invalid_utf8 ? "1.0\xff" : "1.0",
       .description = invalid_utf8 ? "caf\xe9 plugin" : "a plugin with hostile words"},
      major, error);
  if (table == nullptr) return nullptr;
  static pb_plugin copy = *table;
  static std::vector<pb_kernel> kernels(table->kernels, table->kernels + table->kernel_count);
  static std::vector<pb_build_entry> build(table->build_info,
                                           table->build_info + table->build_info_count);
  static const std::string variant = setting("PLUGBENCH_HOSTILE_VARIANT");
  for (pb_kernel& kernel : kernels) {
    const std::string name = kernel.variant;
    if (name == "unterminated_error") kernel.run = fill_without_nul;
    if (name == "invalid_utf8_error") kernel.run = fail_in_latin1;
    if (name == "crash_mid_character") kernel.run = crash_mid_character;
    if (invalid_utf8) kernel.description = "\xc3 cut short";
  }
  if (!variant.empty()) kernels.front().variant = variant.c_str();
  if (invalid_utf8) build.push_back({"compiler_flags", "-O2 \xe9t\xe9"});
  copy.kernels = kernels.data();
  copy.kernel_count = static_cast<std::uint32_t>(kernels.size());
  copy.build_info = build.data();
  copy.build_info_count = static_cast<std::uint32_t>(build.size());
  return &copy;
}

}  // namespace

BOOST_DLL_ALIAS(hostile_entry, plugbench_plugin_entry)
