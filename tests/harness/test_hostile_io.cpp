// test_hostile_io.cpp: hostile bytes, files and signals around a run (docs/fault-isolation.md,
// "Odd bytes, files and signals"): text that is not UTF-8 or has no NUL, results paths that are
// devices, FIFOs, folders or planted links, a reader that goes away, results files that overflow,
// never end or are huge, names that break the naming rule, and comparisons of nothing.
#include "results/results_json.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::kReplacement;
using plugbench::testing::kUnderAddressSanitizer;
using plugbench::testing::read_json;
using plugbench::testing::read_text;
using plugbench::testing::run_harness;
using plugbench::testing::ScopedEnv;
using plugbench::testing::TempFolder;
using plugbench::testing::write_text;

namespace fs = std::filesystem;

const nlohmann::json* cell_named(const nlohmann::json& results, const std::string& variant) {
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["variant"] == variant) return &cell;
  }
  return nullptr;
}

const nlohmann::json* plugin_entry(const nlohmann::json& results, const std::string& path_part) {
  for (const nlohmann::json& plugin : results["context"]["plugins"]) {
    if (contains(plugin["path"].get<std::string>(), path_part)) return &plugin;
  }
  return nullptr;
}

// The hostile plugin on one small problem.
std::vector<std::string> hostile_run(const std::string& variants, const std::string& json) {
  return {"--plugin-dir",
          fake_plugin_dir("hostile_text"),
          "-p",
          "fake_hostile",
          "-w",
          "reduce",
          "-s",
          "2^10",
          "-r",
          "3",
          "-v",
          variants,
          "--json",
          json,
          "-q"};
}

TEST(HostileIo, TextThatIsNotUtf8FromAPluginIsRecordedWithReplacementCharacters) {
  TempFolder folder;
  ScopedEnv text("PLUGBENCH_HOSTILE_TEXT", "invalid_utf8");
  const std::string json = folder.file("out.json");
  CommandResult r = run_harness(hostile_run("hostile,invalid_utf8_error", json));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // the failing kernel, not the results file
  nlohmann::json results = read_json(json);
  const nlohmann::json* plugin = plugin_entry(results, "hostile_text");
  ASSERT_NE(plugin, nullptr) << results["context"]["plugins"].dump();
  EXPECT_EQ((*plugin)["version"], "1.0" + kReplacement);
  EXPECT_EQ((*plugin)["description"], "caf" + kReplacement + " plugin");
  EXPECT_EQ((*plugin)["kernels"][0]["description"], kReplacement + " cut short");
  EXPECT_EQ((*plugin)["build_info"]["compiler_flags"], "-O2 " + kReplacement + "t" + kReplacement);
  const nlohmann::json* good = cell_named(results, "hostile");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ((*good)["status"], "ok") << good->dump();
  const nlohmann::json* failed = cell_named(results, "invalid_utf8_error");
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ((*failed)["status"], "error") << failed->dump();
  EXPECT_EQ((*failed)["message"],
            "the kernel failed: caf" + kReplacement + " " + kReplacement + kReplacement + " broke");
}

TEST(HostileIo, AWorkersLastLineCutInsideACharacterKeepsTheResultsFile) {
  TempFolder folder;
  const std::string json = folder.file("out.json");
  CommandResult r = run_harness(hostile_run("crash_mid_character", json));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(json);
  const nlohmann::json* crashed = cell_named(results, "crash_mid_character");
  ASSERT_NE(crashed, nullptr);
  EXPECT_EQ((*crashed)["status"], "crashed") << crashed->dump();
  // Cut at 300 bytes would split "é": the cut falls before it.
  EXPECT_TRUE(contains((*crashed)["message"], "its last output: " + std::string(299, 'a') + "..."))
      << crashed->dump();
}

TEST(HostileIo, FileNamesThatAreNotUtf8KeepTheResultsFile) {
  TempFolder folder;
  const std::string plugins = folder.file("plugins");
  fs::create_directories(plugins);
  // A real plugin under a Latin-1 name, and a file that is no library under another.
  fs::copy_file(fake_plugin_dir("good") + "/libplugbench_fake_good.so", plugins + "/caf\xe9.so");
  write_text(plugins + "/\xff.so", "not a library\n");
  const std::string json = folder.file("r\xe9sultats.json");
  CommandResult r = run_harness({"--plugin-dir", plugins, "-p", "fake_good", "-w", "reduce", "-s",
                                 "2^10", "-r", "3", "--json", json, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_TRUE(fs::exists(json)) << r.err;
  nlohmann::json results = read_json(json);
  EXPECT_TRUE(contains(results["context"]["command_line"], "r" + kReplacement + "sultats.json"));
  const nlohmann::json* renamed = plugin_entry(results, "caf" + kReplacement + ".so");
  ASSERT_NE(renamed, nullptr) << results["context"]["plugins"].dump();
  EXPECT_EQ((*renamed)["name"], "fake_good");
  const nlohmann::json* junk = plugin_entry(results, "/" + kReplacement + ".so");
  ASSERT_NE(junk, nullptr) << results["context"]["plugins"].dump();
  EXPECT_EQ((*junk)["status"], "broken");
  // A worker's request cannot carry the path: the cells say so instead of the run failing.
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_EQ(cell["status"], "unavailable") << cell.dump();
    EXPECT_TRUE(contains(cell["message"], "not valid UTF-8")) << cell.dump();
  }
  // In the harness's own process the plugin runs.
  CommandResult inline_run =
      run_harness({"--plugin-dir", plugins, "-p", "fake_good", "-w", "reduce", "-s", "2^10", "-r",
                   "3", "--isolation", "none", "--json", json, "-q"});
  EXPECT_EQ(inline_run.exit_code, 0) << inline_run.err;
  EXPECT_EQ(read_json(json)["results"][0]["status"], "ok");
}

TEST(HostileIo, AnEntryMessageWithoutANulIsReadToTheBufferEndOnly) {
  TempFolder folder;
  ScopedEnv entry("PLUGBENCH_HOSTILE_ENTRY", "unterminated");
  const std::string json = folder.file("out.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("hostile_text"), "-p", "cpu_serial", "-w",
                   "reduce", "-s", "2^10", "-r", "3", "--json", json, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(json);
  const nlohmann::json* plugin = plugin_entry(results, "hostile_text");
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ((*plugin)["status"], "broken");
  EXPECT_EQ((*plugin)["reason"], "the entry returned no plugin table: " + std::string(1024, 'y'));
}

TEST(HostileIo, AKernelErrorWithoutANulIsAnErrorReadToTheBufferEnd) {
  TempFolder folder;
  const std::string json = folder.file("out.json");
  CommandResult r = run_harness(hostile_run("unterminated_error", json));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const nlohmann::json results = read_json(json);
  const nlohmann::json* cell = cell_named(results, "unterminated_error");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ((*cell)["status"], "error") << cell->dump();
  EXPECT_EQ((*cell)["message"], "the kernel failed: " + std::string(2048, 'x'));
}

TEST(HostileIo, AReaderThatGoesAwayDoesNotCostTheResultsFile) {
  TempFolder folder;
  const std::string json = folder.file("out.json");
  const std::string status = folder.file("status");
  // `true` exits at once: every write to stdout meets a closed pipe.
  std::string command = "('" + std::string(PLUGBENCH_HARNESS_PATH) +
                        "' -p cpu_serial -w reduce,scan -s 2^10 -r 3 -q --json '" + json +
                        "'; echo $? > '" + status + "') | true";
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(read_text(status), "0\n");  // not 141 (128 + SIGPIPE)
  ASSERT_TRUE(fs::exists(json));
  EXPECT_EQ(read_json(json)["results"].size(), 2u);
}

// A results file of one cell whose median is `number` (as text: JSON allows 1e400).
std::string results_with_number(const std::string& number) {
  return R"({"schema_version": 1, "complete": true, "context": {}, "results": [{"workload": "reduce",
    "plugin": "cpu_serial", "variant": "sequential", "distribution": "uniform", "status": "ok",
    "n": 1024, "time": {"kernel": {"median_ms": )" +
         number + "}}}]}";
}

TEST(HostileIo, ANumberBeyondADoubleIsAnUnreadableFileNamedInTheMessage) {
  TempFolder folder;
  const std::string path = folder.file("overflow.json");
  write_text(path, results_with_number("1e400"));
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"show", path}, std::vector<std::string>{"compare", path, path}}) {
    CommandResult r = run_harness(command);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, path + ": unreadable JSON: number overflow")) << r.err;
  }
}

TEST(HostileIo, DevicesFifosAndFoldersAreRefusedAsTheResultsPathBeforeTheRun) {
  TempFolder folder;
  const std::string fifo = folder.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::string run_folder = folder.file("a_folder");
  fs::create_directories(run_folder);
  // (Not /dev/null: a harness without the check, run as root, would replace the device.)
  for (const auto& [path, what] :
       {std::pair<std::string, std::string>{fifo, "is a FIFO"}, {run_folder, "is a folder"}}) {
    CommandResult r = run_harness(
        {"-p", "cpu_serial", "-w", "reduce", "-s", "2^10", "-r", "3", "--json", path, "-q"});
    EXPECT_EQ(r.exit_code, 2) << path << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--json '" + path + "' " + what)) << r.err;
    EXPECT_TRUE(r.out.empty()) << "nothing may run: " << r.out;
  }
  struct stat info {};
  ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
}

TEST(HostileIo, TheTemporaryResultsFileIsFreshNeverAPlantedLink) {
  TempFolder folder;
  const std::string path = folder.file("out.json");
  const std::string victim = folder.file("victim");
  write_text(victim, "precious\n");
  // The name the harness used to write first: <path>.tmp.<pid>, predictable by anyone.
  fs::create_symlink(victim, path + ".tmp." + std::to_string(::getpid()));
  const mode_t old_mask = ::umask(027);
  write_json_atomically(nlohmann::json{{"schema_version", 1}}, path);
  ::umask(old_mask);
  EXPECT_EQ(read_text(victim), "precious\n");
  struct stat info {};
  ASSERT_EQ(::lstat(path.c_str(), &info), 0);
  EXPECT_TRUE(S_ISREG(info.st_mode));
  EXPECT_EQ(info.st_mode & 0777, 0640u);  // 0644 less the umask
  EXPECT_EQ(read_json(path)["schema_version"], 1);
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(folder.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 3u) << "no temporary file may be left behind";
}

TEST(HostileIo, AStrayArgumentIsAUsageErrorThatSuggestsTheCommaForm) {
  CommandResult r = run_harness({"-p", "cpu_serial", "openmp", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "unexpected argument 'openmp'")) << r.err;
  EXPECT_TRUE(contains(r.err, "-p cpu_serial,openmp")) << r.err;
  EXPECT_EQ(run_harness({"-p", "cpu_serial,openmp", "--dry-run"}).exit_code, 0);
}

// Two small real runs to compare: a base, and one of another workload.
class HostileCompare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<TempFolder>();
    for (const auto& [name, workload] :
         {std::pair<std::string, std::string>{"base", "reduce"}, {"other", "scan"}}) {
      CommandResult r = run_harness({"-p", "cpu_serial", "-w", workload, "-s", "2^10", "-r", "3",
                                     "--json", folder_->file(name + ".json"), "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  static void TearDownTestSuite() { folder_.reset(); }
  static std::string file(const std::string& name) { return folder_->file(name + ".json"); }
  static std::unique_ptr<TempFolder> folder_;
};
std::unique_ptr<TempFolder> HostileCompare::folder_;

TEST_F(HostileCompare, NothingComparedExitsThreeUnlessAllowed) {
  CommandResult r = run_harness({"compare", file("base"), file("other")});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "0 cells compared")) << r.out;
  EXPECT_TRUE(contains(r.err, "--allow-empty")) << r.err;
  nlohmann::json empty = read_json(file("base"));
  empty["results"] = nlohmann::json::array();
  write_text(file("empty"), empty.dump());
  EXPECT_EQ(run_harness({"compare", file("base"), file("empty")}).exit_code, 3);
  EXPECT_EQ(run_harness({"compare", file("base"), file("other"), "--allow-empty"}).exit_code, 0);
  EXPECT_EQ(run_harness({"compare", file("base"), file("base")}).exit_code, 0);
}

TEST_F(HostileCompare, AnIncompleteNewFileIsWarnedAboutAndExitsThreeUnlessAllowed) {
  nlohmann::json cut = read_json(file("base"));
  cut["complete"] = false;
  cut["interrupted_by_signal"] = 2;
  write_text(file("cut"), cut.dump());
  CommandResult r = run_harness({"compare", file("base"), file("cut")});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "warning: " + file("cut") + " is incomplete")) << r.err;
  EXPECT_TRUE(contains(r.err, "(signal 2)")) << r.err;
  CommandResult allowed = run_harness({"compare", file("base"), file("cut"), "--allow-incomplete"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_TRUE(contains(allowed.err, "warning: " + file("cut") + " is incomplete")) << allowed.err;
  CommandResult help = run_harness({"compare", "--help"});
  EXPECT_TRUE(contains(help.out, "3 no regression but nothing to vouch for it")) << help.out;
}

TEST(HostileIo, KernelNamesThatBreakTheRuleRefuseThePluginNamingTheRule) {
  for (const std::string& name :
       std::vector<std::string>{"two\nlines", "\x1b[31mred", "-neg", "all", "comma,var",
                                std::string(65, 'v'), "caf\xe9"}) {
    ScopedEnv variant("PLUGBENCH_HOSTILE_VARIANT", name);
    CommandResult r = run_harness({"--plugin-dir", fake_plugin_dir("hostile_text"), "--list"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "not 'all'")) << name << "\n" << r.out;
    EXPECT_FALSE(contains(r.out, "\x1b")) << "a raw escape reached the terminal";
    EXPECT_FALSE(contains(r.out, "two\nlines"));
  }
  ScopedEnv fine("PLUGBENCH_HOSTILE_VARIANT", "v1.2+fast-path");
  CommandResult r = run_harness({"--plugin-dir", fake_plugin_dir("hostile_text"), "--list"});
  EXPECT_TRUE(contains(r.out, "v1.2+fast-path")) << r.out;
  EXPECT_FALSE(contains(r.out, "not 'all'")) << r.out;
}

// The message an author meets for a variant named like a title: the name, what is wrong, the rule;
// --list shows the plugin broken, --check-plugin refuses the file.
TEST(HostileIo, AVariantNamedBadNameIsRefusedWithTheRule) {
  ScopedEnv variant("PLUGBENCH_HOSTILE_VARIANT", "Bad Name!");
  const std::string why =
      "is named 'Bad Name!': a character outside the rule; names are 1 to 64 of A-Z a-z 0-9 _ . "
      "+ -, not starting with '-', and not 'all'";
  CommandResult list = run_harness({"--plugin-dir", fake_plugin_dir("hostile_text"), "--list"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_TRUE(contains(list.out, why)) << list.out;
  CommandResult check = run_harness(
      {"--check-plugin", fake_plugin_dir("hostile_text") + "/libplugbench_fake_hostile_text.so"});
  EXPECT_EQ(check.exit_code, 2) << check.out << check.err;
  EXPECT_TRUE(contains(check.err, why)) << check.err;
}

TEST(HostileIo, ShowEscapesControlCharactersFromAFile) {
  TempFolder folder;
  const std::string json = folder.file("out.json");
  ASSERT_EQ(run_harness(
                {"-p", "cpu_serial", "-w", "reduce", "-s", "2^10", "-r", "3", "--json", json, "-q"})
                .exit_code,
            0);
  nlohmann::json document = read_json(json);
  document["results"][0]["variant"] = "evil\x1b[2J\nrow";
  document["results"][0]["status"] = "error";
  document["results"][0]["message"] = "bell\x07 and \xc2\x9b csi";
  write_text(json, document.dump());
  for (const std::string format : {"console", "md", "csv"}) {
    CommandResult r = run_harness({"show", json, "--format", format});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const std::string raw : {"\x1b", "\x07", "\xc2\x9b", "evil\x1b[2J\nrow"}) {
      EXPECT_FALSE(contains(r.out + r.err, raw)) << format << ": " << r.out;
    }
    // Markdown escapes the backslashes and brackets of the escapes too (they render as typed).
    const std::string shown = format == "md" ? "evil\\\\x1b\\[2J\\\\nrow" : "evil\\x1b[2J\\nrow";
    EXPECT_TRUE(contains(r.out + r.err, shown)) << format << ": " << r.out;
  }
}

TEST(HostileIo, ShowRefusesFilesThatAreNotRegularOrTooLarge) {
  TempFolder folder;
  // Bounds for a harness that would read on: in time (a FIFO without a writer blocks) and, outside
  // AddressSanitizer (whose shadow memory needs the address space), in memory (/dev/zero).
  const std::string bounded =
      std::string(kUnderAddressSanitizer ? "" : "ulimit -v 4000000; ") + "timeout 60 ";
  CommandResult zero = run_harness({"show", "/dev/zero"}, bounded);
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_TRUE(contains(zero.err, "/dev/zero: is not a regular file")) << zero.err;
  const std::string fifo = folder.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  CommandResult pipe = run_harness({"compare", fifo, fifo}, bounded);
  EXPECT_EQ(pipe.exit_code, 2) << pipe.err;
  EXPECT_TRUE(contains(pipe.err, fifo + ": is not a regular file")) << pipe.err;
  // 64 MiB and one byte, sparse: refused before a byte is read.
  const std::string huge = folder.file("huge.json");
  write_text(huge, "");
  fs::resize_file(huge, (std::uintmax_t{64} << 20) + 1);
  CommandResult large = run_harness({"show", huge});
  EXPECT_EQ(large.exit_code, 2) << large.err;
  EXPECT_TRUE(contains(large.err, "more than the 64 MiB")) << large.err;
  EXPECT_TRUE(contains(large.err, "--max-file-mib")) << large.err;
  // Raised, the limit lets it through to the JSON reader (which finds zeros, not JSON).
  CommandResult raised = run_harness({"show", huge, "--max-file-mib", "65"});
  EXPECT_EQ(raised.exit_code, 2);
  EXPECT_TRUE(contains(raised.err, "malformed JSON")) << raised.err;
}

}  // namespace
}  // namespace plugbench
