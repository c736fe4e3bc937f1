// test_problem_store.cpp: the harness shares generated problems with its workers through sealed
// memory files: every workload's problem and reference come back exactly, a file that is not the
// problem asked for is refused, a sealed one refuses every change, the harness generates the shared
// problem itself, and a run leaves no store folder behind (nor one of a run that was killed).
#include "cells/problem_store.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace plugbench {
namespace {

namespace fs = std::filesystem;
using plugbench::testing::TempFolder;

std::string reference_bytes(const Workload& workload, const Reference& reference) {
  std::ostringstream out;
  workload.write_reference(reference, out);
  return out.str();
}

bool same_bytes(const HostArray& a, const HostArray& b) {
  return a.name() == b.name() && a.type() == b.type() && a.count() == b.count() &&
         a.size_bytes() == b.size_bytes() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

TEST(ProblemStore, EveryWorkloadsProblemAndReferenceComeBackExactly) {
  TempFolder folder;
  for (const Workload* workload : WorkloadRegistry::instance().all()) {
    for (const std::string& distribution : workload->distributions()) {
      const Shape shape = workload->shape_for_count(1003);
      ProblemData problem = workload->generate(shape, distribution);
      std::shared_ptr<const Reference> reference = workload->reference(problem);
      const std::string path =
          folder.file(problem_file_name(workload->name(), distribution, shape));
      ASSERT_TRUE(store_problem(path, *workload, problem, *reference));

      ProblemData loaded;
      std::shared_ptr<const Reference> loaded_reference;
      ASSERT_TRUE(load_problem(path, *workload, distribution, shape, loaded, loaded_reference))
          << workload->name() << " " << distribution;
      EXPECT_EQ(loaded.workload, problem.workload);
      EXPECT_EQ(loaded.distribution, distribution);
      EXPECT_EQ(loaded.shape, shape);
      EXPECT_EQ(loaded.params.n, problem.params.n);
      EXPECT_EQ(loaded.params.max_iterations, problem.params.max_iterations);
      EXPECT_EQ(
          std::memcmp(loaded.params.region, problem.params.region, sizeof loaded.params.region), 0);
      ASSERT_EQ(loaded.inputs.size(), problem.inputs.size());
      for (std::size_t i = 0; i < problem.inputs.size(); ++i) {
        EXPECT_TRUE(same_bytes(loaded.inputs[i], problem.inputs[i])) << workload->name();
      }
      ASSERT_EQ(loaded.outputs.size(), problem.outputs.size());
      for (std::size_t i = 0; i < problem.outputs.size(); ++i) {
        EXPECT_EQ(loaded.outputs[i].name, problem.outputs[i].name);
        EXPECT_EQ(loaded.outputs[i].count, problem.outputs[i].count);
      }
      EXPECT_EQ(reference_bytes(*workload, *loaded_reference),
                reference_bytes(*workload, *reference))
          << workload->name() << " " << distribution;
      // Another shape or distribution under that name is not taken for this one.
      Shape other = shape;
      other.n += 1;
      EXPECT_FALSE(load_problem(path, *workload, distribution, other, loaded, loaded_reference));
    }
  }
}

TEST(ProblemStore, AFileCutShortOrMissingIsNotAProblem) {
  TempFolder folder;
  const Workload& sort = *WorkloadRegistry::instance().find("sort");
  const Shape shape = sort.shape_for_count(5000);
  ProblemData problem = sort.generate(shape, "uniform");
  std::shared_ptr<const Reference> reference = sort.reference(problem);
  const std::string path = folder.file("sort.problem");
  ASSERT_TRUE(store_problem(path, sort, problem, *reference));
  const auto size = fs::file_size(path);
  fs::resize_file(path, size - 8);  // the end mark is gone
  ProblemData loaded;
  std::shared_ptr<const Reference> loaded_reference;
  EXPECT_FALSE(load_problem(path, sort, "uniform", shape, loaded, loaded_reference));
  fs::resize_file(path, size / 2);
  EXPECT_FALSE(load_problem(path, sort, "uniform", shape, loaded, loaded_reference));
  EXPECT_FALSE(
      load_problem(folder.file("absent"), sort, "uniform", shape, loaded, loaded_reference));
  EXPECT_FALSE(store_problem(folder.file("no/such/folder/x"), sort, problem, *reference));
}

// What the harness shares is a sealed memory file: it reads back as the problem, and no write,
// truncation or writable mapping gets through, even from the process that made it.
TEST(ProblemStore, ASealedProblemReadsBackAndRefusesEveryChange) {
  const Workload& reduce = *WorkloadRegistry::instance().find("reduce");
  const Shape shape = reduce.shape_for_count(4096);
  ProblemData problem = reduce.generate(shape, "mod100");
  std::shared_ptr<const Reference> reference = reduce.reference(problem);
  const int fd = seal_problem("test", reduce, problem, *reference);
  ASSERT_GE(fd, 0) << "memfd_create or sealing failed";
  EXPECT_TRUE(is_sealed(fd));

  const std::string path = path_of_descriptor(fd);
  ProblemData loaded;
  std::shared_ptr<const Reference> loaded_reference;
  ASSERT_TRUE(load_problem(path, reduce, "mod100", shape, loaded, loaded_reference));
  EXPECT_EQ(reference_bytes(reduce, *loaded_reference), reference_bytes(reduce, *reference));

  const int writable = ::open(path.c_str(), O_RDWR);
  ASSERT_GE(writable, 0) << "opening is allowed; changing is not";
  const char byte = 1;
  EXPECT_EQ(::pwrite(writable, &byte, 1, 0), -1);
  EXPECT_EQ(errno, EPERM);
  EXPECT_NE(::ftruncate(writable, 0), 0);
  EXPECT_EQ(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, writable, 0), MAP_FAILED);
  ::close(writable);
  ASSERT_TRUE(load_problem(path, reduce, "mod100", shape, loaded, loaded_reference));
  EXPECT_EQ(reference_bytes(reduce, *loaded_reference), reference_bytes(reduce, *reference));

  ::close(fd);
}

TEST(ProblemStore, TheHarnessGeneratesAndSealsTheSharedProblemItself) {
  const Workload& reduce = *WorkloadRegistry::instance().find("reduce");
  const Shape shape = reduce.shape_for_count(1000);
  const ProblemData problem = reduce.generate(shape, "mod100");
  const std::shared_ptr<const Reference> reference = reduce.reference(problem);
  SealedProblems held;
  const std::string name = problem_file_name("reduce", "mod100", shape);
  ASSERT_TRUE(held.generate(name, reduce, "mod100", shape));
  const std::string path = held.path(name);
  ASSERT_FALSE(path.empty());
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(is_sealed(fd));
  ::close(fd);
  ProblemData loaded;
  std::shared_ptr<const Reference> loaded_reference;
  ASSERT_TRUE(load_problem(path, reduce, "mod100", shape, loaded, loaded_reference));
  EXPECT_EQ(reference_bytes(reduce, *loaded_reference), reference_bytes(reduce, *reference));
  // A problem it cannot generate is left to the workers, which say why in the cell.
  EXPECT_FALSE(held.generate("q", reduce, "no_such_distribution", shape));
  EXPECT_TRUE(held.path("q").empty());
  held.clear();
  EXPECT_TRUE(held.path(name).empty());
}

std::vector<fs::path> store_folders_of(pid_t pid) {
  std::vector<fs::path> found;
  const std::string prefix = "plugbench-problems-" + std::to_string(pid) + "-";
  for (const fs::path& root : {fs::path("/dev/shm"), fs::temp_directory_path()}) {
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(root, error)) {
      if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path());
    }
  }
  return found;
}

TEST(ProblemStore, ARunSharesItsProblemsAndLeavesNoFolderNorOneOfAKilledRun) {
  // A folder as a harness killed with SIGKILL leaves it: its process is gone.
  pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  ::waitpid(dead, nullptr, 0);
  // Where the harness puts the folders depends on /dev/shm's room: leave one in both places.
  std::vector<fs::path> abandoned;
  for (const fs::path& root : {fs::path("/dev/shm"), fs::temp_directory_path()}) {
    if (::access(root.c_str(), W_OK | X_OK) != 0) continue;
    abandoned.push_back(root / ("plugbench-problems-" + std::to_string(dead) + "-test01"));
    fs::create_directories(abandoned.back());
    std::ofstream(abandoned.back() / "reduce-mod100-1000-1000x1.problem") << "left behind";
  }

  TempFolder folder;
  const int harness = plugbench::testing::start_harness(
      {"-p", "cpu_serial,openmp", "-w", "sort,mandelbrot", "-s", "3000,5000", "-v",
       "all,-lsd_radix_combining,-adaptive,-vector_rows", "-r", "3", "--warmup", "0", "--json",
       folder.file("r.json"), "-q"});
  ASSERT_GT(harness, 0);
  EXPECT_EQ(plugbench::testing::wait_for_exit(harness), 0);
  // Every cell verifies, both plugins reading each problem the harness stored.
  nlohmann::json results = plugbench::testing::read_json(folder.file("r.json"));
  ASSERT_EQ(results["results"].size(), 10u);
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
  }
  EXPECT_TRUE(store_folders_of(harness).empty()) << "the run removes its own folder";
  std::size_t removed = 0;
  for (const fs::path& folder_left : abandoned) removed += !fs::exists(folder_left);
  EXPECT_EQ(removed, 1u) << "the folder of a dead run, where this harness keeps its own";
  for (const fs::path& folder_left : abandoned) fs::remove_all(folder_left);
}

}  // namespace
}  // namespace plugbench
