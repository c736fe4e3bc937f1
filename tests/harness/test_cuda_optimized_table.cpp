// test_cuda_optimized_table.cpp: what the cuda_optimized plugin registers, read from its table
// without running a kernel (no GPU needed): a default build carries the shipped designs and the
// few opt-in teaching variants its README names; a build with -DPLUGBENCH_TUNINGS=ON adds every
// tuning the README lists, under those names; the build info says which build it is; no
// description dates a kernel. Without the CUDA plugins the tests are skipped.
#include "load/plugin_loader.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace plugbench {
namespace {

using plugbench::testing::lines_of;
using plugbench::testing::read_text;

// A default build's opt-in variants: the teaching ones, a handful at most.
constexpr std::size_t kMaxDefaultOptIns = 5;

// The plugin as the harness loads it (loaded once: the harness never unloads a plugin). Skips the
// test where this build has no CUDA plugins; fails it where cuda_optimized should load and does
// not.
class CudaOptimizedTable : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PLUGBENCH_CUDA_PLUGINS_BUILT) GTEST_SKIP() << "this build has no CUDA plugins";
    static const PluginRecord record =
        load_plugin(plugbench::testing::plugin_dir() + "/libplugbench_cuda_optimized.so", "test");
    ASSERT_NE(record.state, PluginState::broken) << record.reason;
    plugin_ = &record;
  }
  const PluginRecord* plugin_ = nullptr;
};

// "workload/variant" of each kernel with (or without) PB_KERNEL_OPT_IN.
std::set<std::string> kernels_of(const PluginRecord& plugin, bool opt_in) {
  std::set<std::string> names;
  for (const KernelRecord& kernel : plugin.kernels) {
    if (((kernel.flags & PB_KERNEL_OPT_IN) != 0) == opt_in) {
      names.insert(kernel.workload + "/" + kernel.variant);
    }
  }
  return names;
}

// "workload/variant" for each `variant` in the second column of the table under the README's
// heading `section` (the first word of the first column is the workload).
std::set<std::string> readme_variants(const std::string& section) {
  std::set<std::string> names;
  bool inside = false;
  const std::regex row(R"(^\| ([a-z]+)[^|]*\| ([^|]*)\|)");
  const std::regex name("`([a-z0-9_]+)`");
  for (const std::string& line : lines_of(read_text(PLUGBENCH_CUDA_OPTIMIZED_README))) {
    if (line.rfind("## ", 0) == 0) inside = line == "## " + section;
    std::smatch cells;
    if (!inside || !std::regex_search(line, cells, row)) continue;
    const std::string workload = cells[1];
    const std::string column = cells[2];
    for (std::sregex_iterator it(column.begin(), column.end(), name), end; it != end; ++it) {
      names.insert(workload + "/" + (*it)[1].str());
    }
  }
  return names;
}

TEST_F(CudaOptimizedTable, BuildInfoSaysWhetherTheTuningsAreIn) {
  std::map<std::string, std::string> info(plugin_->build_info.begin(), plugin_->build_info.end());
  ASSERT_EQ(info.count("tunings"), 1u);
  EXPECT_EQ(info["tunings"], PLUGBENCH_TUNINGS_BUILT ? "on" : "off");
}

TEST_F(CudaOptimizedTable, DescriptionsSayWhatNotWhen) {
  const std::regex dated(R"(\b(19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}\b|until (19|20)[0-9]{2})");
  for (const KernelRecord& kernel : plugin_->kernels) {
    EXPECT_FALSE(std::regex_search(kernel.description, dated))
        << kernel.workload << "/" << kernel.variant << ": " << kernel.description;
  }
}

TEST_F(CudaOptimizedTable, ADefaultBuildShowsTheShippedDesignsAndTheTeachingVariants) {
  if (PLUGBENCH_TUNINGS_BUILT) {
    GTEST_SKIP() << "this build has PLUGBENCH_TUNINGS=ON: the test is about a default build";
  }
  const std::set<std::string> opt_in = kernels_of(*plugin_, true);
  EXPECT_LE(opt_in.size(), kMaxDefaultOptIns);
  EXPECT_EQ(opt_in, readme_variants("Teaching variants"))
      << "the opt-in variants of a default build are the README's teaching variants";
  for (const char* shipped : {"scan/decoupled_lookback", "scan/lookback_bulk",
                              "compact/decoupled_lookback", "compact/lookback_bulk"}) {
    EXPECT_EQ(kernels_of(*plugin_, false).count(shipped), 1u) << shipped;
  }
}

TEST_F(CudaOptimizedTable, ATuningBuildHasEveryTuningTheReadmeLists) {
  if (!PLUGBENCH_TUNINGS_BUILT) {
    GTEST_SKIP() << "needs a build with -DPLUGBENCH_TUNINGS=ON (this one has the default, OFF)";
  }
  const std::set<std::string> opt_in = kernels_of(*plugin_, true);
  std::set<std::string> registered = opt_in;
  registered.merge(kernels_of(*plugin_, false));
  std::set<std::string> documented = readme_variants("Tunings");
  for (const std::string& name : documented) {
    EXPECT_EQ(registered.count(name), 1u) << name << " is listed in the README, not registered";
  }
  documented.merge(readme_variants("Teaching variants"));
  for (const std::string& name : opt_in) {
    EXPECT_EQ(documented.count(name), 1u) << name << " is registered, not listed in the README";
  }
}

}  // namespace
}  // namespace plugbench
