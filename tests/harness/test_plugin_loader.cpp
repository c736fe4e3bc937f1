// test_plugin_loader.cpp: every way loading can fail is refused with the exact reason, and a good
// plugin's table is read as declared.
#include "load/library_checksum.hpp"
#include "load/plugin_loader.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::fake_plugin_dir;

std::string fake_library(const std::string& folder) {
  return fake_plugin_dir(folder) + "/libplugbench_fake_" + folder + ".so";
}

TEST(PluginLoader, AGoodPluginIsAvailableWithItsKernels) {
  PluginRecord plugin = load_plugin(fake_library("good"), "test");
  EXPECT_EQ(plugin.state, PluginState::available) << plugin.reason;
  EXPECT_EQ(plugin.name, "fake_good");
  EXPECT_EQ(plugin.version, "0.0.1");
  EXPECT_EQ(plugin.abi_major, PB_ABI_MAJOR);
  ASSERT_EQ(plugin.kernels.size(), 1u);
  EXPECT_EQ(plugin.kernels[0].workload, "reduce");
  EXPECT_EQ(plugin.kernels[0].variant, "fake_loop");
  EXPECT_NE(plugin.find_kernel("reduce", "fake_loop"), nullptr);
  bool has_compiler = false;
  for (const auto& [key, value] : plugin.build_info)
    has_compiler = has_compiler || key == "compiler";
  EXPECT_TRUE(has_compiler);
}

TEST(PluginLoader, AWrongMajorVersionIsRefusedWithBothVersions) {
  PluginRecord plugin = load_plugin(fake_library("wrong_major"), "test");
  EXPECT_EQ(plugin.state, PluginState::broken);
  EXPECT_NE(plugin.reason.find("plugin ABI 2.1 but this harness speaks 1.1"), std::string::npos)
      << plugin.reason;
  EXPECT_NE(plugin.reason.find("major versions differ"), std::string::npos);
}

TEST(PluginLoader, ANewerMinorVersionIsRefused) {
  PluginRecord plugin = load_plugin(fake_library("newer_minor"), "test");
  EXPECT_EQ(plugin.state, PluginState::broken);
  EXPECT_NE(plugin.reason.find("1.7 is newer than this harness's 1.1"), std::string::npos)
      << plugin.reason;
}

TEST(PluginLoader, ALibraryWithoutTheEntryIsNotAPlugin) {
  PluginRecord plugin = load_plugin(fake_library("no_entry"), "test");
  EXPECT_EQ(plugin.state, PluginState::broken);
  EXPECT_NE(plugin.reason.find("no 'plugbench_plugin_entry' symbol"), std::string::npos)
      << plugin.reason;
}

TEST(PluginLoader, AnEntryThatReturnsNothingIsReportedWithItsMessage) {
  PluginRecord plugin = load_plugin(fake_library("null_entry"), "test");
  EXPECT_EQ(plugin.state, PluginState::broken);
  EXPECT_NE(plugin.reason.find("the entry returned no plugin table: fake plugin refuses to start"),
            std::string::npos)
      << plugin.reason;
}

TEST(PluginLoader, ATextFileNamedLikeAPluginIsNotALibrary) {
  PluginRecord plugin =
      load_plugin(fake_plugin_dir("not_a_library") + "/libplugbench_text.so", "t");
  EXPECT_EQ(plugin.state, PluginState::broken);
  EXPECT_NE(plugin.reason.find("cannot be loaded as a shared library"), std::string::npos)
      << plugin.reason;
}

TEST(PluginLoader, AMissingFileIsReportedNotThrown) {
  PluginRecord plugin = load_plugin("/nonexistent/libplugbench_nothing.so", "test");
  EXPECT_EQ(plugin.state, PluginState::broken);
  EXPECT_NE(plugin.reason.find("cannot be loaded"), std::string::npos);
}

TEST(PluginLoader, AProbeThatSaysNoMakesThePluginUnavailableWithTheReason) {
  PluginRecord plugin = load_plugin(fake_library("unavailable"), "test");
  EXPECT_EQ(plugin.state, PluginState::unavailable);
  EXPECT_EQ(plugin.reason, "fake device is switched off");
  EXPECT_EQ(plugin.kernels.size(), 1u);  // still listed, with its kernels
}

TEST(PluginLoader, TheSecondPluginWithATakenNameIsIgnored) {
  std::vector<PluginRecord> plugins =
      discover_plugins({{fake_plugin_dir("duplicate"), "test", true}});
  ASSERT_EQ(plugins.size(), 2u);
  EXPECT_EQ(plugins[0].state, PluginState::available);
  EXPECT_EQ(plugins[1].state, PluginState::broken);
  // Its code runs nowhere: no checksum, which a reader could take for the name's.
  EXPECT_FALSE(plugins[0].library_checksum.empty());
  EXPECT_EQ(plugins[1].library_checksum, "");
  EXPECT_NE(plugins[1].reason.find("a plugin named 'fake_good' was already loaded from"),
            std::string::npos)
      << plugins[1].reason;
}

TEST(PluginLoader, AFolderTheUserNamedMustExist) {
  EXPECT_THROW(discover_plugins({{"/nonexistent/plugins", "--plugin-dir", true}}),
               PluginFolderError);
  EXPECT_TRUE(discover_plugins({{"/nonexistent/plugins", "default", false}}).empty());
}

TEST(PluginLoader, TheShippedCpuPluginsAreFoundAndAvailable) {
  std::vector<PluginRecord> plugins =
      discover_plugins({{plugbench::testing::plugin_dir(), "test", true}});
  for (const char* name : {"cpu_serial", "openmp"}) {
    auto it = std::find_if(plugins.begin(), plugins.end(),
                           [&](const PluginRecord& p) { return p.name == name; });
    ASSERT_NE(it, plugins.end()) << name;
    EXPECT_EQ(it->state, PluginState::available) << it->reason;
    EXPECT_EQ(it->kernels.empty(), false);
    // The library's checksum goes with the run: compare knows a baseline rebuilt by it.
    EXPECT_EQ(it->library_checksum, library_checksum(it->path)) << name;
    EXPECT_EQ(it->library_checksum.rfind("crc32:", 0), 0U) << it->library_checksum;
  }
}

// CRC-32 as zlib and cksum -a crc32b give it: "123456789" is the standard check (cbf43926); a
// file that cannot be read has none.
TEST(PluginLoader, ALibrarysChecksumIsTheCrc32OfItsBytes) {
  plugbench::testing::TempFolder folder;
  std::FILE* file = std::fopen(folder.file("check").c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::fputs("123456789", file);
  std::fclose(file);
  EXPECT_EQ(library_checksum(folder.file("check")), "crc32:cbf43926");
  EXPECT_EQ(library_checksum(folder.file("absent")), "");
  // Read in pieces: 1,500,000 zero bytes (zlib: fd5bca9a), and an empty file.
  file = std::fopen(folder.file("zeros").c_str(), "wb");
  ASSERT_NE(file, nullptr);
  const std::vector<char> zeros(1500000, 0);
  ASSERT_EQ(std::fwrite(zeros.data(), 1, zeros.size(), file), zeros.size());
  std::fclose(file);
  EXPECT_EQ(library_checksum(folder.file("zeros")), "crc32:fd5bca9a");
  std::fclose(std::fopen(folder.file("empty").c_str(), "wb"));
  EXPECT_EQ(library_checksum(folder.file("empty")), "crc32:00000000");
}

}  // namespace
}  // namespace plugbench
