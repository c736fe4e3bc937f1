// test_cuda_optimized_table.cpp: what the cuda_optimized plugin registers, read from its table
// without running a kernel (no GPU needed): a default build carries the shipped designs and the
// few opt-in teaching variants its README names; a build with -DPLUGBENCH_TUNINGS=ON adds every
// tuning the README lists, under those names; the build info says which build it is; no
// description dates a kernel. Without the CUDA plugins the tests are skipped.
#include "load/plugin_loader.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

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

// The cells of a markdown table row ("| a | b |" -> {"a", "b"}); empty for any other line.
std::vector<std::string> row_cells(const std::string& line) {
  std::vector<std::string> cells;
  if (line.rfind("| ", 0) != 0) return cells;
  std::size_t start = 1;
  for (std::size_t bar = line.find('|', start); bar != std::string::npos;
       start = bar + 1, bar = line.find('|', start)) {
    cells.push_back(line.substr(start, bar - start));
  }
  return cells;
}

bool is_name_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '_';
}

// "workload/variant" for each `variant` in the second column of the table under the README's
// heading `section` (the first word of the first column is the workload). Plain string scanning:
// GCC 12's std::regex trips -Wmaybe-uninitialized in the sanitizer build.
std::set<std::string> readme_variants(const std::string& section) {
  std::set<std::string> names;
  bool inside = false;
  for (const std::string& line : lines_of(read_text(PLUGBENCH_CUDA_OPTIMIZED_README))) {
    if (line.rfind("## ", 0) == 0) inside = line == "## " + section;
    const std::vector<std::string> cells = row_cells(line);
    if (!inside || cells.size() < 2) continue;
    std::size_t first = cells[0].find_first_not_of(' ');
    std::size_t last = first;
    while (last < cells[0].size() && std::islower(static_cast<unsigned char>(cells[0][last])))
      ++last;
    if (first == std::string::npos || last == first) continue;
    const std::string workload = cells[0].substr(first, last - first);
    const std::string& column = cells[1];
    for (std::size_t open = column.find('`'); open != std::string::npos;) {
      const std::size_t close = column.find('`', open + 1);
      if (close == std::string::npos) break;
      const std::string name = column.substr(open + 1, close - open - 1);
      if (!name.empty() && std::all_of(name.begin(), name.end(), is_name_char)) {
        names.insert(workload + "/" + name);
      }
      open = column.find('`', close + 1);
    }
  }
  return names;
}

// A date (YYYY-MM-DD, 19xx or 20xx) or "until 19xx" / "until 20xx" anywhere in `text`.
bool mentions_a_date(const std::string& text) {
  auto digits = [&](std::size_t at, std::size_t count) {
    if (at + count > text.size()) return false;
    for (std::size_t i = at; i < at + count; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    }
    return true;
  };
  auto century = [&](std::size_t at) {
    return text.compare(at, 2, "19") == 0 || text.compare(at, 2, "20") == 0;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (digits(i, 4) && century(i) && i + 10 <= text.size() && text[i + 4] == '-' &&
        digits(i + 5, 2) && text[i + 7] == '-' && digits(i + 8, 2)) {
      return true;
    }
    if (text.compare(i, 6, "until ") == 0 && digits(i + 6, 4) && century(i + 6)) return true;
  }
  return false;
}

TEST_F(CudaOptimizedTable, BuildInfoSaysWhetherTheTuningsAreIn) {
  std::map<std::string, std::string> info(plugin_->build_info.begin(), plugin_->build_info.end());
  ASSERT_EQ(info.count("tunings"), 1u);
  EXPECT_EQ(info["tunings"], PLUGBENCH_TUNINGS_BUILT ? "on" : "off");
}

TEST_F(CudaOptimizedTable, DescriptionsSayWhatNotWhen) {
  EXPECT_TRUE(mentions_a_date("the shipped shape until 2026-12-01"));
  EXPECT_TRUE(mentions_a_date("named so until 2025"));
  EXPECT_FALSE(mentions_a_date("8192-item tiles, 256 threads x 32"));
  for (const KernelRecord& kernel : plugin_->kernels) {
    EXPECT_FALSE(mentions_a_date(kernel.description))
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
