// test_plugin_matrix.cpp: every shipped plugin x workload x variant (opt-in ones included), on
// every distribution, at the awkward sizes of awkward_sizes.hpp (tiny, prime, not powers of two;
// the same ones harness --check-plugin uses), checked against the harness's references. One test
// per kernel, registered at run time from what the plugins declare; a plugin that cannot run here
// (a GPU plugin without a GPU) is skipped with its reason.
#include "load/plugin_loader.hpp"
#include "measure/cell_protocol.hpp"
#include "plan/awkward_sizes.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <tuple>

namespace plugbench {
namespace {

struct CachedProblem {
  ProblemData data;
  std::shared_ptr<const Reference> reference;
};

// Problems and references are shared by all kernels of a workload.
const CachedProblem& problem_for(const Workload& workload, const std::string& distribution,
                                 const Shape& shape) {
  static std::map<std::tuple<std::string, std::string, std::uint64_t, std::uint64_t>,
                  std::unique_ptr<CachedProblem>>
      cache;
  auto key = std::make_tuple(workload.name(), distribution, shape.n, shape.width);
  auto& entry = cache[key];
  if (!entry) {
    entry = std::make_unique<CachedProblem>();
    entry->data = workload.generate(shape, distribution);
    entry->reference = workload.reference(entry->data);
  }
  return *entry;
}

class KernelOnAwkwardSizes : public ::testing::Test {
 public:
  KernelOnAwkwardSizes(const PluginRecord* plugin, const KernelRecord* kernel)
      : plugin_(plugin), kernel_(kernel) {}

  void TestBody() override {
    if (plugin_->state != PluginState::available) {
      GTEST_SKIP() << plugin_->name << " is " << to_string(plugin_->state) << ": "
                   << plugin_->reason;
    }
    const Workload* workload = WorkloadRegistry::instance().find(kernel_->workload);
    ASSERT_NE(workload, nullptr) << "no workload named " << kernel_->workload;
    static std::map<std::string, std::unique_ptr<PluginSession>> sessions;
    auto& session = sessions[plugin_->name];
    if (!session) session = std::make_unique<PluginSession>(*plugin_, 0);

    RunSettings settings;
    settings.repetitions = 1;
    settings.warmup = 0;
    settings.cache = CacheMode::warm;
    for (const std::string& distribution : workload->distributions()) {
      for (const Shape& shape : awkward_shapes(*workload)) {
        SCOPED_TRACE(distribution + " n=" + std::to_string(shape.n) + " (" +
                     std::to_string(shape.width) + "x" + std::to_string(shape.height) + ")");
        const CachedProblem& problem = problem_for(*workload, distribution, shape);
        CellResult cell =
            measure_cell(*workload, problem.data, *problem.reference, *session, *kernel_, settings);
        if (cell.status == "unsupported") continue;  // a declared limit, reported as such
        EXPECT_EQ(cell.status, "ok") << cell.message;
        ASSERT_TRUE(cell.verification.has_value()) << cell.message;
        EXPECT_TRUE(cell.verification->passed) << cell.verification->detail;
        EXPECT_TRUE(cell.kernel.has_value());
      }
    }
  }

 private:
  const PluginRecord* plugin_;
  const KernelRecord* kernel_;
};

void register_kernel_tests() {
  static const std::vector<PluginRecord> plugins =
      discover_plugins({{plugbench::testing::plugin_dir(), "test", true}});
  for (const PluginRecord& plugin : plugins) {
    for (const KernelRecord& kernel : plugin.kernels) {
      std::string name = plugin.name + "." + kernel.workload + "." + kernel.variant;
      // Opt-in kernels are tested too (cuda_optimized's teaching variants, and in a build with
      // -DPLUGBENCH_TUNINGS=ON its tunings, must be exact), all but the one that exists to give a
      // wrong answer (test_check_plugin.cpp pins that down).
      if (name == "cpu_serial.dot.float_accumulator") continue;
      ::testing::RegisterTest("PluginMatrix", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [plugin = &plugin, kernel = &kernel]() -> ::testing::Test* {
                                return new KernelOnAwkwardSizes(plugin, kernel);
                              });
    }
  }
}

}  // namespace
}  // namespace plugbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  plugbench::register_kernel_tests();
  return RUN_ALL_TESTS();
}
