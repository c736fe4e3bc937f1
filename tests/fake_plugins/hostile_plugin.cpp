// hostile_plugin.cpp: reduce plugins that attack the harness's statuses rather than merely fail,
// built several times with one HOSTILE_* definition each (tests/harness/test_hostile_plugins.cpp).
// Each also declares a correct `honest` kernel after its attack, to show that the cells that follow
// an attack are filed and verified as they should be.
#include <plugbench/host_services.hpp>
#include <plugbench/plugin_sdk.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#ifndef HOSTILE_NAME
#error "HOSTILE_NAME must name the plugin"
#endif

namespace {

std::int64_t sum_of(plugbench::sdk::Call& call) {
  const std::int32_t* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
  return sum;
}

#ifdef HOSTILE_LATE_UNSUPPORTED
// A wrong answer on the checked call, then PB_UNSUPPORTED: the refusal must not hide the answer.
void wrong_then_unsupported(plugbench::sdk::Call& call) {
  static int calls = 0;
  if (++calls > 1) throw plugbench::sdk::unsupported("this problem is not for me after all");
  *call.output<std::int64_t>(0) = sum_of(call) + 1;
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "wrong_then_unsupported",
                  .description = "wrong, then refuses",
                  .run = wrong_then_unsupported});
#endif

#ifdef HOSTILE_FORK
// Forks a child that keeps the worker's descriptors (its channel to the harness among them) and
// lives on, recording its pid in $PLUGBENCH_HOSTILE_PID_FILE; the worker then crashes or hangs.
void touch(const char* env) {
  if (const char* path = std::getenv(env)) {
    if (std::FILE* file = std::fopen(path, "w")) std::fclose(file);
  }
}

void fork_child() {
  const pid_t child = ::fork();
  if (child == 0) {
    for (int i = 0; i < 60; ++i) ::sleep(1);
    ::_exit(0);
  }
  if (const char* path = std::getenv("PLUGBENCH_HOSTILE_PID_FILE")) {
    if (std::FILE* file = std::fopen(path, "w")) {
      std::fprintf(file, "%d\n", static_cast<int>(child));
      std::fclose(file);
    }
  }
}
void fork_then_segfault(plugbench::sdk::Call&) {
  fork_child();
  ::raise(SIGSEGV);
}
void fork_then_hang(plugbench::sdk::Call&) {
  fork_child();
  touch("PLUGBENCH_HOSTILE_MARKER");
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "fork_then_segfault",
                  .description = "forks, then segfaults",
                  .run = fork_then_segfault});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "fork_then_hang",
                  .description = "forks, then hangs",
                  .run = fork_then_hang});
#endif

#ifdef HOSTILE_BAD_ALLOC_TEXT
// Prints what an uncaught std::bad_alloc prints, then dies of a segfault: a crash, not an oom.
void says_bad_alloc_then_segfaults(plugbench::sdk::Call&) {
  std::fputs("terminate called after throwing an instance of 'std::bad_alloc'\n", stderr);
  std::fflush(stderr);
  ::raise(SIGSEGV);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "says_bad_alloc",
                  .description = "prints bad_alloc, segfaults",
                  .run = says_bad_alloc_then_segfaults});
#endif

#ifdef HOSTILE_LAZY
// Does the work on the first call of a problem only; later calls return at once.
void works_once(plugbench::sdk::Call& call) {
  static const void* last_input = nullptr;
  if (call.input<std::int32_t>(0) == last_input) return;
  last_input = call.input<std::int32_t>(0);
  *call.output<std::int64_t>(0) = sum_of(call);
}
// Remembers the answer and writes it again on every call: right, but impossibly fast.
void remembers_answer(plugbench::sdk::Call& call) {
  static const void* last_input = nullptr;
  static std::int64_t answer = 0;
  if (call.input<std::int32_t>(0) != last_input) {
    last_input = call.input<std::int32_t>(0);
    answer = sum_of(call);
  }
  *call.output<std::int64_t>(0) = answer;
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "works_once",
                  .description = "works on the checked call only",
                  .run = works_once});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "remembers_answer",
                  .description = "writes a remembered answer",
                  .run = remembers_answer});
#endif

#ifdef HOSTILE_FORGER
// Writes a reply of its own on the worker's channel (descriptor 3): an ok cell for itself.
void forges_reply(plugbench::sdk::Call& call) {
  const std::string n = std::to_string(call.n());
  const std::string forged =
      R"({"type":"cell","cell":{"workload":"reduce","plugin":")" HOSTILE_NAME
      R"(","variant":"forges_reply","n":)" +
      n + R"(,"shape":{"width":)" + n + R"(,"height":1},"size":")" + n +
      R"(","distribution":"mod100","status":"ok","message":"forged","flags":[],)"
      R"("memory_space":"host","workspace_bytes":0,"time":{"kernel":null,"end_to_end":null},)"
      R"("transfers":[],"traffic":null,"gbps":null,"percent_of_peak":null,"work_rate":null,)"
      R"("speedup":null,"speedup_end_to_end":null,"baseline":null,"verification":null}})"
      "\n";
  if (::write(3, forged.data(), forged.size()) < 0) std::perror("hostile plugin: write");
  *call.output<std::int64_t>(0) = sum_of(call);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "forges_reply",
                  .description = "writes a forged reply",
                  .run = forges_reply});
#endif

#ifdef HOSTILE_TAMPER
// Rewrites the reference of every stored problem of its own run it can reach (the last byte of the
// sum but one, in the problem files of the harness's store folder; the memory files that the
// worker or the harness hold open), logging each attempt to $PLUGBENCH_HOSTILE_TAMPER_LOG as
// "tampered PATH" or "refused PATH: REASON". It computes its own answer honestly.
void log_attempt(const std::string& line) {
  if (const char* path = std::getenv("PLUGBENCH_HOSTILE_TAMPER_LOG")) {
    if (std::FILE* file = std::fopen(path, "a")) {
      std::fprintf(file, "%s\n", line.c_str());
      std::fclose(file);
    }
  }
}

// Adds one to the byte 16 from the end (a reduce reference's lowest byte, before the end marker).
void tamper(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR);
  if (fd < 0) {
    log_attempt("refused " + path + ": open: " + std::strerror(errno));
    return;
  }
  struct stat info {};
  unsigned char byte = 0;
  if (::fstat(fd, &info) == 0 && info.st_size >= 16 &&
      ::pread(fd, &byte, 1, info.st_size - 16) == 1) {
    ++byte;
    if (::pwrite(fd, &byte, 1, info.st_size - 16) == 1) {
      log_attempt("tampered " + path);
    } else {
      log_attempt("refused " + path + ": write: " + std::strerror(errno));
    }
  }
  ::close(fd);
}

void tamper_with_store(plugbench::sdk::Call& call) {
  const std::string harness = std::to_string(::getppid());
  for (const char* root : {"/dev/shm", "/tmp"}) {
    if (DIR* folder = ::opendir(root)) {
      while (const dirent* entry = ::readdir(folder)) {
        const std::string name = entry->d_name;
        if (name.rfind("plugbench-problems-" + harness + "-", 0) != 0) continue;
        const std::string store = std::string(root) + "/" + name;
        if (DIR* files = ::opendir(store.c_str())) {
          while (const dirent* file = ::readdir(files)) {
            if (std::string(file->d_name).find(".problem") != std::string::npos) {
              tamper(store + "/" + file->d_name);
            }
          }
          ::closedir(files);
        }
      }
      ::closedir(folder);
    }
  }
  for (const std::string& process : {std::string("self"), harness}) {
    const std::string fds = "/proc/" + process + "/fd";
    if (DIR* folder = ::opendir(fds.c_str())) {
      while (const dirent* entry = ::readdir(folder)) {
        const std::string path = fds + "/" + entry->d_name;
        char target[512] = {};
        if (::readlink(path.c_str(), target, sizeof target - 1) > 0 &&
            std::string(target).rfind("/memfd:", 0) == 0) {
          tamper(path);
        }
      }
      ::closedir(folder);
    }
  }
  *call.output<std::int64_t>(0) = sum_of(call);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "tampers",
                  .description = "rewrites stored references",
                  .run = tamper_with_store});
#endif

#ifdef HOSTILE_SHARED_PROBLEM_FORGER
// On its first call, puts a forgery in place of each sealed memory file its worker holds (the
// problem the worker generated, had the harness left generation to the worker): a sealed copy with
// the reference's lowest byte plus one, dup3'ed over the same descriptor number. A harness that
// took the problem from the worker after the reply would hand the forgery to every other plugin.
// Logs "forged FD" to $PLUGBENCH_HOSTILE_FORGER_LOG; its own answer is honest.
void log_forgery(const std::string& line) {
  if (const char* path = std::getenv("PLUGBENCH_HOSTILE_FORGER_LOG")) {
    if (std::FILE* file = std::fopen(path, "a")) {
      std::fprintf(file, "%s\n", line.c_str());
      std::fclose(file);
    }
  }
}

void forge(int fd) {
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const int original = ::open(path.c_str(), O_RDONLY);
  if (original < 0) return;
  std::string bytes;
  char chunk[65536];
  for (ssize_t n; (n = ::read(original, chunk, sizeof chunk)) > 0;) bytes.append(chunk, n);
  ::close(original);
  if (bytes.size() < 16) return;
  ++bytes[bytes.size() - 16];
  const int forged = ::memfd_create("forged", MFD_ALLOW_SEALING);
  if (forged < 0) return;
  if (::write(forged, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()) &&
      ::fcntl(forged, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) == 0 &&
      ::dup3(forged, fd, O_CLOEXEC) == fd) {
    log_forgery("forged " + std::to_string(fd));
  }
  ::close(forged);
}

void forge_shared_problem(plugbench::sdk::Call& call) {
  static bool done = false;
  if (!done) {
    done = true;
    std::vector<int> sealed;
    if (DIR* folder = ::opendir("/proc/self/fd")) {
      while (const dirent* entry = ::readdir(folder)) {
        const int fd = std::atoi(entry->d_name);
        const int seals = fd > 2 ? ::fcntl(fd, F_GET_SEALS) : -1;
        if (seals > 0 && (seals & F_SEAL_WRITE)) sealed.push_back(fd);
      }
      ::closedir(folder);
    }
    for (int fd : sealed) forge(fd);
  }
  *call.output<std::int64_t>(0) = sum_of(call);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "forges_problem",
                  .description = "forges the shared problem",
                  .run = forge_shared_problem});
#endif

// Registered last: it runs after the attack, in the worker that follows it.
void honest(plugbench::sdk::Call& call) {
  *call.output<std::int64_t>(0) = sum_of(call);
}
PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "honest", .description = "correct", .run = honest});

#ifdef HOSTILE_TIMER
// A timer that reports $PLUGBENCH_HOSTILE_TIME ms ("nan", "inf", "-1", "0") for every sample.
class Services : public plugbench::sdk::HostServices {
 public:
  using plugbench::sdk::HostServices::BasicHostServices;
  double timer_stop() {
    const char* text = std::getenv("PLUGBENCH_HOSTILE_TIME");
    return text ? std::strtod(text, nullptr) : std::numeric_limits<double>::quiet_NaN();
  }
};
#else
using Services = plugbench::sdk::HostServices;
#endif

#ifdef HOSTILE_CONSTRUCTOR_HANGS
// Hangs while the library is loaded: in whatever process dlopens it.
const bool hangs_on_load = [] {
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
  return true;
}();
#endif

#ifdef HOSTILE_PROBE_SEGFAULTS
class ProbeCrashes : public Services {
 public:
  using Services::Services;
  static bool probe(std::string&) {
    ::raise(SIGSEGV);
    return true;
  }
};
#define HOSTILE_SERVICES ProbeCrashes
#else
#define HOSTILE_SERVICES Services
#endif

}  // namespace

PLUGBENCH_PLUGIN(HOSTILE_SERVICES,
                 {.name = HOSTILE_NAME, .version = "0.0.1", .description = "hostile"});
