// plugin_sdk.hpp: header-only C++ side of the plugin contract. A plugin author writes one plain
// function per kernel and one PLUGBENCH_KERNEL line; PLUGBENCH_PLUGIN turns a small "services"
// class (memory, copies, timer) into the pb_plugin table. Exceptions never cross the boundary.
//
//   void reduce_loop(plugbench::sdk::Call& call) { ... }
//   PLUGBENCH_KERNEL({.workload = "reduce", .variant = "loop", .run = reduce_loop});
//   PLUGBENCH_PLUGIN(plugbench::sdk::HostServices, {.name = "my_cpu", .version = "1.0"});
#pragma once

#include <plugbench/plugin_api.h>

#include <boost/dll/alias.hpp>

#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// Everything the SDK defines stays inside the plugin: two plugins never bind to each other.
#pragma GCC visibility push(hidden)

namespace plugbench::sdk {

// Thrown by a kernel or a service to end the call with a given status.
class Failure : public std::runtime_error {
 public:
  Failure(pb_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  pb_status status() const { return status_; }

 private:
  pb_status status_;
};

inline Failure unsupported(const std::string& why) {
  return Failure(PB_UNSUPPORTED, why);
}
inline Failure out_of_memory(const std::string& why) {
  return Failure(PB_OUT_OF_MEMORY, why);
}
inline Failure unavailable(const std::string& why) {
  return Failure(PB_UNAVAILABLE, why);
}

inline void write_message(pb_error* error, const char* text) {
  if (error == nullptr || error->message == nullptr || error->capacity == 0) return;
  std::snprintf(error->message, error->capacity, "%s", text);
}

// Runs `body`, turning any exception into a status and a message for the harness.
template <class Body>
pb_status guarded(pb_error* error, Body&& body) noexcept {
  try {
    body();
    return PB_OK;
  } catch (const Failure& failure) {
    write_message(error, failure.what());
    return failure.status();
  } catch (const std::bad_alloc&) {
    write_message(error, "out of host memory (std::bad_alloc)");
    return PB_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    write_message(error, e.what());
    return PB_ERROR;
  } catch (...) {
    write_message(error, "unknown exception");
    return PB_ERROR;
  }
}

// What a kernel function sees: the problem, typed buffers and its session.
class Call {
 public:
  Call(void* session, const pb_problem& problem, const pb_buffers& buffers)
      : session_(session), problem_(problem), buffers_(buffers) {}

  const pb_problem& problem() const { return problem_; }
  uint64_t n() const { return problem_.n; }

  template <class T>
  const T* input(uint32_t index) const {
    check(index < buffers_.input_count, "input", index);
    return static_cast<const T*>(buffers_.inputs[index]);
  }
  template <class T>
  T* output(uint32_t index) const {
    check(index < buffers_.output_count, "output", index);
    return static_cast<T*>(buffers_.outputs[index]);
  }
  template <class T>
  T* workspace() const {
    return static_cast<T*>(buffers_.workspace);
  }
  uint64_t workspace_bytes() const { return buffers_.workspace_bytes; }
  template <class Session>
  Session& session() const {
    return *static_cast<Session*>(session_);
  }

 private:
  static void check(bool ok, const char* what, uint32_t index) {
    if (!ok)
      throw Failure(PB_ERROR,
                    std::string("kernel asked for missing ") + what + " " + std::to_string(index));
  }
  void* session_;
  const pb_problem& problem_;
  const pb_buffers& buffers_;
};

using KernelFunction = void (*)(Call& call);
// Scratch bytes for a problem; the session is the plugin's services object.
using WorkspaceFunction = uint64_t (*)(void* session, const pb_problem& problem);

// One kernel as a plugin author declares it. C++20 designated initializers must name the fields
// in this order (any of them may be left out):
//   PLUGBENCH_KERNEL({.workload = "reduce", .variant = "loop", .description = "...",
//                     .run = reduce_loop, .flags = 0, .workspace = nullptr, .max_n = 0});
//
// Names: workload and variant are 1 to 64 of A-Z a-z 0-9 _ . + -, not starting with '-' and not
// "all" (they reach --variants lists, tables and file names); a plugin with a kernel named
// otherwise, or with two kernels of one name, is refused at load with the rule in the message.
// The plugin's own name (PluginInfo::name) is 1 to 64 of a-z 0-9 _.
//
// What the harness checks (docs/writing-a-plugin.md, "How each workload is verified"): integer
// outputs exactly (reduce, histogram, scan, compact, sort); dot within 1e-5 of sum |x*y| (float
// products, float sums only in bounded blocks or trees); mandelbrot pixel for pixel against the
// arithmetic below, exactly.
//
// Mandelbrot's arithmetic, float32, each operation rounded to nearest:
//   re_min = (float)region[0]; re_span = (float)(region[1] - region[0]);  (im: region[2], [3])
//   cr = re_min + (re_span * (float)x) / (float)width;   pixel (x, y) is its corner, not centre
//   ci = im_min + (im_span * (float)y) / (float)height;
//   zr = zi = 0; k = 0;
//   while (k < max_iterations) {
//     zr2 = zr * zr; zi2 = zi * zi;
//     if (!(zr2 + zi2 <= 4.0f)) break;
//     t = (zr2 - zi2) + cr;
//     zi = (2 * zr) * zi + ci;   the only place an FMA may contract: fmaf(2 * zr, zi, ci)
//     zr = t; ++k;
//   }
//   iterations[y * width + x] = k;
// Each pixel must equal this without FMA or with that one FMA. Host code: compile it with
// -ffp-contract=off (or write std::fma there). CUDA: write it with __fmul_rn, __fadd_rn,
// __fsub_rn, __fdiv_rn and __fmaf_rn (nvcc fuses other a*b+c on its own otherwise), or compile
// with -fmad=false for the result without FMA.
struct Kernel {
  const char* workload = "";
  const char* variant = "default";
  const char* description = "";
  KernelFunction run = nullptr;
  uint32_t flags = 0;                     // PB_KERNEL_* bits
  WorkspaceFunction workspace = nullptr;  // scratch bytes per problem, allocated by the harness
  uint64_t max_n = 0;                     // the largest n accepted; 0: no limit
};

namespace detail {

inline std::deque<Kernel>& declared_kernels() {
  static std::deque<Kernel> kernels;  // deque: addresses stay valid as kernels are added
  return kernels;
}

inline pb_status run_kernel(const pb_kernel* self, void* session, const pb_problem* problem,
                            const pb_buffers* buffers, pb_error* error) {
  return guarded(error, [&] {
    const auto* kernel = static_cast<const Kernel*>(self->user_data);
    Call call(session, *problem, *buffers);
    kernel->run(call);
  });
}

inline pb_status kernel_workspace(const pb_kernel* self, void* session, const pb_problem* problem,
                                  uint64_t* bytes, pb_error* error) {
  return guarded(error, [&] {
    const auto* kernel = static_cast<const Kernel*>(self->user_data);
    *bytes = kernel->workspace ? kernel->workspace(session, *problem) : 0;
  });
}

}  // namespace detail

// Adds a kernel to this plugin's table; used through PLUGBENCH_KERNEL at namespace scope.
struct Registration {
  explicit Registration(const Kernel& kernel) { detail::declared_kernels().push_back(kernel); }
};

// What PLUGBENCH_PLUGIN needs to know besides the services class.
struct PluginInfo {
  const char* name = "";
  const char* version = "0.0.0";
  const char* description = "";
  pb_memory_space memory_space = PB_MEMORY_HOST;
  // Extra build facts (e.g. CUDA version), appended to those the SDK records itself.
  std::vector<std::pair<std::string, std::string>> build_info = {};
};

// Build facts every plugin records: compiler, language level, ABI.
inline std::vector<std::pair<std::string, std::string>> standard_build_info() {
  std::vector<std::pair<std::string, std::string>> info;
#if defined(__NVCC__)
  info.emplace_back("nvcc", std::to_string(__CUDACC_VER_MAJOR__) + "." +
                                std::to_string(__CUDACC_VER_MINOR__) + "." +
                                std::to_string(__CUDACC_VER_BUILD__));
#endif
#if defined(__clang__)
  info.emplace_back("compiler", std::string("clang ") + __clang_version__);
#elif defined(__GNUC__)
  info.emplace_back("compiler", std::string("GCC ") + __VERSION__);
#endif
  info.emplace_back("cplusplus", std::to_string(__cplusplus));
  info.emplace_back("plugin_abi",
                    std::to_string(PB_ABI_MAJOR) + "." + std::to_string(PB_ABI_MINOR));
#if defined(NDEBUG)
  info.emplace_back("assertions", "off");
#else
  info.emplace_back("assertions", "on");
#endif
  return info;
}

// Builds the C table around a services class S. S provides:
//   static bool probe(std::string& reason);        can it run here? if not, why
//   explicit S(int32_t device);                     opens a session (may throw)
//   void* alloc(uint64_t); void release(void*);
//   void* alloc_host(uint64_t, pb_host_memory); void release_host(void*, pb_host_memory);
//   void copy_in(void* dst, const void* src, uint64_t); void copy_out(...); void copy_within(...);
//   void sync(); void timer_start(); double timer_stop();
// and optionally: void flush_cache(); void device_info(pb_device_info&);
//   void timer_begin(uint32_t flags); void timer_end(pb_sample_timing&);   (both or neither)
//   void read_within(const void* source, uint64_t bytes);
//   void execution_context(pb_execution_context&);
template <class S>
class PluginTable {
 public:
  static const pb_plugin* build(PluginInfo info) {
    static PluginTable table(std::move(info));
    return &table.plugin_;
  }

 private:
  explicit PluginTable(PluginInfo info) : info_(std::move(info)) {
    build_strings_ = standard_build_info();
    for (auto& entry : info_.build_info) build_strings_.push_back(entry);
    for (auto& [key, value] : build_strings_)
      build_entries_.push_back({key.c_str(), value.c_str()});
    for (const Kernel& kernel : detail::declared_kernels()) {
      pb_kernel entry{};
      entry.struct_size = sizeof(pb_kernel);
      entry.workload = kernel.workload;
      entry.variant = kernel.variant;
      entry.description = kernel.description;
      entry.flags = kernel.flags;
      entry.max_n = kernel.max_n;
      entry.user_data = &kernel;
      entry.workspace_bytes = kernel.workspace ? &detail::kernel_workspace : nullptr;
      entry.run = &detail::run_kernel;
      kernels_.push_back(entry);
    }
    plugin_.struct_size = sizeof(pb_plugin);
    plugin_.abi_major = PB_ABI_MAJOR;
    plugin_.abi_minor = PB_ABI_MINOR;
    plugin_.name = info_.name;
    plugin_.version = info_.version;
    plugin_.description = info_.description;
    plugin_.build_info = build_entries_.data();
    plugin_.build_info_count = static_cast<uint32_t>(build_entries_.size());
    plugin_.memory_space = info_.memory_space;
    plugin_.probe = &probe;
    plugin_.open = &open;
    plugin_.close = &close;
    plugin_.device_info = has_device_info() ? &device_info : nullptr;
    plugin_.alloc = &alloc;
    plugin_.release = &release;
    plugin_.alloc_host = &alloc_host;
    plugin_.release_host = &release_host;
    plugin_.copy_in = &copy_in;
    plugin_.copy_out = &copy_out;
    plugin_.copy_within = &copy_within;
    plugin_.sync = &sync;
    plugin_.timer_start = &timer_start;
    plugin_.timer_stop = &timer_stop;
    plugin_.flush_cache = has_flush_cache() ? &flush_cache : nullptr;
    plugin_.kernels = kernels_.data();
    plugin_.kernel_count = static_cast<uint32_t>(kernels_.size());
    plugin_.timer_begin = has_sample_timer() ? &timer_begin : nullptr;
    plugin_.timer_end = has_sample_timer() ? &timer_end : nullptr;
    plugin_.read_within = has_read_within() ? &read_within : nullptr;
    plugin_.execution_context = has_execution_context() ? &execution_context : nullptr;
  }

  static constexpr bool has_flush_cache() {
    return requires(S & s) {
      s.flush_cache();
    };
  }
  static constexpr bool has_device_info() {
    return requires(S & s, pb_device_info & i) {
      s.device_info(i);
    };
  }
  static constexpr bool has_sample_timer() {
    return requires(S & s, pb_sample_timing & t) {
      s.timer_begin(uint32_t{0});
      s.timer_end(t);
    };
  }
  static constexpr bool has_read_within() {
    return requires(S & s, const void* p) {
      s.read_within(p, uint64_t{0});
    };
  }
  static constexpr bool has_execution_context() {
    return requires(S & s, pb_execution_context & c) {
      s.execution_context(c);
    };
  }
  static S& self(void* session) { return *static_cast<S*>(session); }

  static pb_status probe(pb_error* error) {
    std::string reason;
    pb_status status = guarded(error, [&] {
      if (!S::probe(reason)) throw unavailable(reason.empty() ? "unavailable" : reason);
    });
    return status;
  }
  static pb_status open(int32_t device, void** session, pb_error* error) {
    return guarded(error, [&] { *session = new S(device); });
  }
  static void close(void* session) { delete static_cast<S*>(session); }
  static pb_status device_info(void* session, pb_device_info* info, pb_error* error) {
    return guarded(error, [&] {
      if constexpr (has_device_info()) self(session).device_info(*info);
    });
  }
  static pb_status alloc(void* session, uint64_t bytes, void** pointer, pb_error* error) {
    return guarded(error, [&] { *pointer = self(session).alloc(bytes); });
  }
  static void release(void* session, void* pointer) {
    try {
      self(session).release(pointer);
    } catch (...) {  // releasing must never throw across the boundary
    }
  }
  static pb_status alloc_host(void* session, uint64_t bytes, pb_host_memory kind, void** pointer,
                              pb_error* error) {
    return guarded(error, [&] { *pointer = self(session).alloc_host(bytes, kind); });
  }
  static void release_host(void* session, void* pointer, pb_host_memory kind) {
    try {
      self(session).release_host(pointer, kind);
    } catch (...) {
    }
  }
  static pb_status copy_in(void* session, void* target, const void* source, uint64_t bytes,
                           pb_error* error) {
    return guarded(error, [&] { self(session).copy_in(target, source, bytes); });
  }
  static pb_status copy_out(void* session, void* target, const void* source, uint64_t bytes,
                            pb_error* error) {
    return guarded(error, [&] { self(session).copy_out(target, source, bytes); });
  }
  static pb_status copy_within(void* session, void* target, const void* source, uint64_t bytes,
                               pb_error* error) {
    return guarded(error, [&] { self(session).copy_within(target, source, bytes); });
  }
  static pb_status sync(void* session, pb_error* error) {
    return guarded(error, [&] { self(session).sync(); });
  }
  static pb_status timer_start(void* session, pb_error* error) {
    return guarded(error, [&] { self(session).timer_start(); });
  }
  static pb_status timer_stop(void* session, double* elapsed_ms, pb_error* error) {
    return guarded(error, [&] { *elapsed_ms = self(session).timer_stop(); });
  }
  static pb_status timer_begin(void* session, uint32_t flags, pb_error* error) {
    return guarded(error, [&] {
      if constexpr (has_sample_timer()) self(session).timer_begin(flags);
    });
  }
  static pb_status timer_end(void* session, pb_sample_timing* timing, pb_error* error) {
    return guarded(error, [&] {
      if constexpr (has_sample_timer()) self(session).timer_end(*timing);
    });
  }
  static pb_status read_within(void* session, const void* source, uint64_t bytes, pb_error* error) {
    return guarded(error, [&] {
      if constexpr (has_read_within()) self(session).read_within(source, bytes);
    });
  }
  static pb_status execution_context(void* session, pb_execution_context* context,
                                     pb_error* error) {
    return guarded(error, [&] {
      if constexpr (has_execution_context()) self(session).execution_context(*context);
    });
  }
  static pb_status flush_cache(void* session, pb_error* error) {
    return guarded(error, [&] {
      if constexpr (has_flush_cache()) self(session).flush_cache();
    });
  }

  PluginInfo info_;
  std::vector<std::pair<std::string, std::string>> build_strings_;
  std::vector<pb_build_entry> build_entries_;
  std::vector<pb_kernel> kernels_;
  pb_plugin plugin_{};
};

// The entry's body: the plugin-side ABI check, then the table.
template <class S>
const pb_plugin* entry(const PluginInfo& info, uint16_t harness_major, pb_error* error) noexcept {
  if (harness_major != PB_ABI_MAJOR) {
    std::string message = std::string("plugin ") + info.name + " speaks plugin ABI " +
                          std::to_string(PB_ABI_MAJOR) + ".x, the harness " +
                          std::to_string(harness_major) + ".x";
    write_message(error, message.c_str());
    return nullptr;
  }
  const pb_plugin* table = nullptr;
  if (guarded(error, [&] { table = PluginTable<S>::build(info); }) != PB_OK) return nullptr;
  return table;
}

}  // namespace plugbench::sdk

#pragma GCC visibility pop

#define PLUGBENCH_SDK_CONCAT_INNER(a, b) a##b
#define PLUGBENCH_SDK_CONCAT(a, b) PLUGBENCH_SDK_CONCAT_INNER(a, b)

// Registers one kernel: PLUGBENCH_KERNEL({.workload = "scan", .variant = "two_pass", .run = f});
// __COUNTER__, not __LINE__: two sources of one plugin joined in a unity build stay distinct.
#define PLUGBENCH_KERNEL(...)                                       \
  static const ::plugbench::sdk::Registration PLUGBENCH_SDK_CONCAT( \
      plugbench_kernel_, __COUNTER__)(::plugbench::sdk::Kernel __VA_ARGS__)

// Defines the plugin's exported entry (once per plugin, in one source file).
#define PLUGBENCH_PLUGIN(Services, ...)                                                       \
  namespace {                                                                                 \
  const pb_plugin* plugbench_sdk_entry(uint16_t major, uint16_t, pb_error* error) {           \
    return ::plugbench::sdk::entry<Services>(::plugbench::sdk::PluginInfo __VA_ARGS__, major, \
                                             error);                                          \
  }                                                                                           \
  }                                                                                           \
  BOOST_DLL_ALIAS(plugbench_sdk_entry, plugbench_plugin_entry)
