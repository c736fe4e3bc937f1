/* plugin_api.h: the whole contract between the plugbench harness and a backend plugin (plain C).
 *
 * A plugin is a shared library that exports one symbol, PB_ENTRY_SYMBOL, holding a pointer to a
 * function of type pb_entry_fn. The harness loads the library (RTLD_NOW | RTLD_LOCAL, never
 * unloaded), calls the entry once and receives a pb_plugin table that lives as long as the process.
 * Only C types cross this boundary: no exceptions, no C++ objects; every fallible call returns a
 * pb_status and writes a message into a buffer that the caller owns (pb_error).
 *
 * Versioning: PB_ABI_MAJOR changes when an existing field changes meaning, size or position; the
 * harness refuses any other major. PB_ABI_MINOR grows when fields are appended at the end of a
 * struct; the harness refuses a plugin whose minor is newer than its own (it could not know what
 * the new fields mean) and reads an older plugin's tables up to their struct_size. Fields are only
 * ever appended, never reordered or removed within a major version.
 * tests/harness/test_abi_layout.cpp pins the sizes and offsets of ABI 1.0: it fails when the layout
 * changes without a version change.
 *
 * Memory: the harness owns every problem buffer. It allocates them through the plugin's memory
 * services (so a GPU plugin gets device memory), copies inputs in, calls a kernel, copies outputs
 * out. A kernel only computes: it must not allocate problem data, must not keep pointers after it
 * returns, and must write every element of every output (outputs are poisoned before each checked
 * run). Temporary storage is asked for up front (pb_kernel.workspace_bytes) and handed to the
 * kernel, so that allocation stays out of the timed region.
 *
 * Timing: the harness brackets a kernel call with timer_start / timer_stop (ABI 1.1: with
 * timer_begin / timer_end where the plugin has them). A GPU plugin records device events on its
 * stream there; a CPU plugin reads a monotonic clock. A kernel may return before its device work
 * has finished (it only enqueues); timer_stop and sync wait for it. docs/measurement.md says what
 * each timer must leave out of the sample (the host's launch latency, a thread team's wake-up).
 *
 * ABI 1.1 appended: pb_device_info.uuid and .pci_bus_id; pb_plugin.timer_begin, .timer_end,
 * .read_within and .execution_context (all optional; the harness checks struct_size first).
 */
#ifndef PLUGBENCH_PLUGIN_API_H
#define PLUGBENCH_PLUGIN_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PB_ABI_MAJOR 1
#define PB_ABI_MINOR 1

/* The exported symbol's name: a variable holding a pb_entry_fn (a Boost.DLL alias). */
#define PB_ENTRY_SYMBOL "plugbench_plugin_entry"

/* Outcome of every fallible call. */
typedef enum pb_status {
  PB_OK = 0,
  PB_ERROR = 1,         /* failed; the message says why */
  PB_UNSUPPORTED = 2,   /* this problem (size, shape) is outside what the kernel handles */
  PB_OUT_OF_MEMORY = 3, /* an allocation failed; the message gives the bytes asked for and free */
  PB_UNAVAILABLE = 4    /* the plugin cannot run on this machine (no driver, no device) */
} pb_status;

/* A message buffer owned by the caller. The callee writes a NUL-terminated message of at most
 * capacity - 1 bytes (truncating if needed). capacity is at least 1. */
typedef struct pb_error {
  char* message;   /* the caller's buffer; starts as an empty string */
  size_t capacity; /* its size in bytes, the terminating NUL included */
} pb_error;

/* Where a plugin's problem buffers live. */
typedef enum pb_memory_space {
  PB_MEMORY_HOST = 0,  /* ordinary host memory: copy in/out are plain copies, not reported apart */
  PB_MEMORY_DEVICE = 1 /* accelerator memory: copy in/out cross a bus and are timed apart */
} pb_memory_space;

/* Host staging memory used as the source and target of copies (see alloc_host). */
typedef enum pb_host_memory {
  PB_HOST_PAGEABLE = 0, /* plain malloc'd memory */
  PB_HOST_PINNED = 1    /* page-locked memory (cudaMallocHost and kin) */
} pb_host_memory;

/* Description of the device a session runs on; a field not known stays zero / empty. */
typedef struct pb_device_info {
  uint32_t struct_size;      /* set by the harness: sizeof(pb_device_info) as it was compiled */
  char name[256];            /* e.g. "NVIDIA H200" */
  char architecture[64];     /* e.g. "sm_90" */
  uint64_t memory_bytes;     /* total device memory */
  uint32_t multiprocessors;  /* SMs / compute units */
  uint32_t clock_khz;        /* core clock */
  uint32_t memory_clock_khz; /* memory clock */
  uint32_t memory_bus_bits;  /* memory bus width */
  uint64_t l2_bytes;         /* last-level cache */
  char driver_version[64];   /* e.g. "13.0" */
  char runtime_version[64];  /* e.g. "13.0" */
  int32_t index;             /* the device index the session uses */
  /* ABI 1.1 */
  char uuid[48];       /* e.g. "GPU-5c1e…", as nvidia-smi -L prints it */
  char pci_bus_id[32]; /* e.g. "0000:19:00.0": how NVML finds the device for telemetry */
} pb_device_info;

/* timer_begin flags (ABI 1.1). */
enum {
  /* The timed work makes the host wait for the device (a copy that completes before it returns, a
   * kernel flagged PB_KERNEL_SYNCHRONIZES_HOST): the timer must not hold the device's queue behind
   * the host, or the two would wait for each other. */
  PB_TIMER_HOST_WAITS = 1u << 0
};

/* How the start of a sample was held back until the timed work was enqueued (ABI 1.1). */
typedef enum pb_timer_hold {
  PB_HOLD_NONE = 0,     /* nothing held: the host's enqueue time may be part of the sample */
  PB_HOLD_RELEASED = 1, /* the start waited behind a blocking kernel, released after the enqueue */
  PB_HOLD_TIMED_OUT = 2 /* the blocking kernel gave up waiting: the timed work waited for the
                         * device from the host (flag it PB_KERNEL_SYNCHRONIZES_HOST) */
} pb_timer_hold;

/* One timed sample as timer_end reports it (ABI 1.1). A field not measured stays zero. */
typedef struct pb_sample_timing {
  uint32_t struct_size;   /* set by the harness: sizeof(pb_sample_timing) as it was compiled */
  pb_timer_hold hold;     /* how the sample's start was held */
  double elapsed_ms;      /* the sample's time */
  double sm_clock_khz;    /* the device's core clock over the sample (0: not measured) */
  double clock_window_ms; /* the window that clock was measured over (its precision) */
} pb_sample_timing;

/* Who runs a host plugin's kernels (ABI 1.1): the thread team and how it is bound to CPUs. */
typedef struct pb_execution_context {
  uint32_t struct_size; /* set by the harness: sizeof(pb_execution_context) as it was compiled */
  uint32_t threads;     /* threads of the team a kernel runs on (1: serial) */
  char binding[64];     /* e.g. "spread" (OMP_PROC_BIND), "none", "serial" */
  char places[192];     /* e.g. "cores: 16 places" (OMP_PLACES), empty when unbound */
} pb_execution_context;

/* The problem a kernel solves. Which fields matter depends on the workload (see the table below).
 */
typedef struct pb_problem {
  uint32_t struct_size;    /* set by the harness: sizeof(pb_problem) as it was compiled */
  const char* workload;    /* e.g. "reduce" */
  uint64_t n;              /* elements (pixels for image workloads: width * height, except a
                              histogram given a count, whose last row is short: read n pixels) */
  uint64_t width;          /* image workloads: columns; otherwise n */
  uint64_t height;         /* image workloads: rows; otherwise 1 */
  uint32_t bins;           /* histogram: number of bins (256) */
  uint32_t max_iterations; /* mandelbrot: iteration cap */
  double region[4];        /* mandelbrot: re_min, re_max, im_min, im_max */
} pb_problem;

/* Buffers of one kernel call, in the plugin's memory space.
 *
 * workload    inputs                          outputs
 * reduce      int32 x[n]                      int64 sum[1]
 * dot         float x[n], float y[n]          double dot[1]
 * histogram   uint8 pixels[n]                 uint32 counts[bins]
 * scan        int32 x[n]                      int32 prefix[n] (exclusive; sums modulo 2^32)
 * compact     int32 x[n]                      int32 kept[n] (nonzero x in order; only the first
 *                                             count are read back), uint64 count[1]
 * sort        uint32 keys[n]                  uint32 sorted[n] (ascending)
 * mandelbrot  (none)                          int32 iterations[width * height], row-major
 *
 * Mandelbrot's arithmetic (pixel to point, order of operations, escape test, the one place a fused
 * multiply-add may contract) is fixed and checked pixel for pixel: plugin_sdk.hpp writes it out
 * above struct Kernel, docs/writing-a-plugin.md explains it.
 *
 * Inputs are read-only. Outputs hold garbage on entry and must be written where the table says
 * they are defined. workspace is the kernel's scratch space of the size its workspace_bytes asked
 * for (NULL when it asked for none).
 *
 * The harness holds a kernel to this: after each checked call it reads every input back (copy_out)
 * and compares it with what it gave, and it checks guard bytes it placed right after each output,
 * which is exactly the size the table gives, with no slack. A changed input or guard byte fails the
 * cell's verification. Those reads and writes use byte offsets into a buffer (pointer + offset), so
 * alloc must return addresses in the memory space, not opaque handles. */
typedef struct pb_buffers {
  uint32_t struct_size;      /* set by the harness: sizeof(pb_buffers) as it was compiled */
  uint32_t input_count;      /* entries in inputs: the workload's inputs, in the table's order */
  const void* const* inputs; /* input_count pointers, read-only, in the plugin's memory space */
  uint32_t output_count;     /* entries in outputs: the workload's outputs, in the table's order */
  void* const* outputs;      /* output_count pointers, in the plugin's memory space */
  void* workspace;           /* scratch of workspace_bytes (NULL when 0), in the memory space */
  uint64_t workspace_bytes;  /* what pb_kernel.workspace_bytes asked for this problem */
} pb_buffers;

/* Kernel flags (pb_kernel.flags). */
enum {
  /* The kernel blocks the host until its work is done (e.g. a Thrust call that returns a value). */
  PB_KERNEL_SYNCHRONIZES_HOST = 1u << 0,
  /* The kernel allocates memory inside the timed region (e.g. Thrust's temporary storage). */
  PB_KERNEL_ALLOCATES = 1u << 1,
  /* Runs only when named in --variants: it exists to show a failure (e.g. a float accumulator). */
  PB_KERNEL_OPT_IN = 1u << 2
};

/* One implementation of one workload. */
typedef struct pb_kernel {
  uint32_t struct_size;    /* sizeof(pb_kernel) as the plugin was compiled */
  const char* workload;    /* a workload name the harness knows, e.g. "histogram" */
  const char* variant;     /* short name, unique within (plugin, workload), e.g. "shared_atomics" */
  const char* description; /* one line for --list; may be NULL */
  uint32_t flags;          /* PB_KERNEL_* bits */
  /* Largest n the kernel accepts; 0 means no limit. Larger problems are recorded as unsupported
   * without calling the kernel. */
  uint64_t max_n;
  const void* user_data; /* anything the plugin wants to find again in workspace_bytes / run */
  /* Optional (NULL: none): scratch bytes the kernel needs for this problem. Called before the timed
   * region; the harness allocates them with alloc and passes them as pb_buffers.workspace. */
  pb_status (*workspace_bytes)(const struct pb_kernel* self, void* session,
                               const pb_problem* problem, uint64_t* bytes, pb_error* error);
  /* Computes the workload. May return before device work finishes (it only enqueues). Must not
   * allocate problem data, must not write the inputs, must write every defined output element. */
  pb_status (*run)(const struct pb_kernel* self, void* session, const pb_problem* problem,
                   const pb_buffers* buffers, pb_error* error);
} pb_kernel;

/* A key/value pair of build information, e.g. {"compiler", "GCC 12.2"}. */
typedef struct pb_build_entry {
  const char* key;   /* a short lower-case name, e.g. "compiler", "cuda_runtime" */
  const char* value; /* free text, e.g. "GCC 12.2.0" */
} pb_build_entry;

/* The table a plugin's entry returns. Every function pointer is required unless marked optional. */
typedef struct pb_plugin {
  uint32_t struct_size;             /* sizeof(pb_plugin) as the plugin was compiled */
  uint16_t abi_major;               /* PB_ABI_MAJOR the plugin was compiled against */
  uint16_t abi_minor;               /* PB_ABI_MINOR the plugin was compiled against */
  const char* name;                 /* unique plugin name, [a-z0-9_]+, e.g. "cuda_naive" */
  const char* version;              /* the plugin's own version, e.g. "1.0.0" */
  const char* description;          /* one line for --list and the results; may be NULL */
  const pb_build_entry* build_info; /* build_info_count entries, recorded in every results file */
  uint32_t build_info_count;        /* entries in build_info */
  pb_memory_space memory_space;     /* where problem buffers live: how copies are reported */

  /* Can the plugin run on this machine? PB_OK, or PB_UNAVAILABLE with the reason. Must not fail
   * loudly, must not leave state behind, and should not initialize a device runtime. */
  pb_status (*probe)(pb_error* error);

  /* A session on device `device` (ignored by host plugins). *session may be any pointer; the
   * harness passes it back to every other call. One session serves the whole run. */
  pb_status (*open)(int32_t device, void** session, pb_error* error);
  /* Ends a session opened by open; every buffer of it has been released before. */
  void (*close)(void* session);
  /* Optional: fills *info for the session's device. */
  pb_status (*device_info)(void* session, pb_device_info* info, pb_error* error);

  /* Memory services. alloc: a problem buffer of `bytes` in memory_space (bytes may be 0: any
   * pointer that release accepts); PB_OUT_OF_MEMORY when it does not fit. */
  pb_status (*alloc)(void* session, uint64_t bytes, void** pointer, pb_error* error);
  /* Frees what alloc returned; never fails. */
  void (*release)(void* session, void* pointer);
  /* Host staging buffers of the given kind (pinned falls back to an error where unsupported). */
  pb_status (*alloc_host)(void* session, uint64_t bytes, pb_host_memory kind, void** pointer,
                          pb_error* error);
  /* Frees what alloc_host returned, given the same kind; never fails. */
  void (*release_host)(void* session, void* pointer, pb_host_memory kind);
  /* Copies between host memory and the plugin's memory; they complete before returning. */
  pb_status (*copy_in)(void* session, void* target, const void* host_source, uint64_t bytes,
                       pb_error* error);
  pb_status (*copy_out)(void* session, void* host_target, const void* source, uint64_t bytes,
                        pb_error* error);
  /* A copy inside the plugin's memory; used to calibrate the peak bandwidth. May be asynchronous.
   */
  pb_status (*copy_within)(void* session, void* target, const void* source, uint64_t bytes,
                           pb_error* error);
  /* Waits until all work the session enqueued has finished; reports asynchronous errors. */
  pb_status (*sync)(void* session, pb_error* error);
  /* Timer around enqueued work: stop waits for the work and gives the elapsed milliseconds. */
  pb_status (*timer_start)(void* session, pb_error* error);
  pb_status (*timer_stop)(void* session, double* elapsed_ms, pb_error* error);
  /* Optional: evicts the problem data from every cache level so that the next sample starts cold,
   * and leaves no dirty line behind for the sample to write back (the previous sample's outputs
   * are written back during the flush). Runs on every thread of a host plugin's team. */
  pb_status (*flush_cache)(void* session, pb_error* error);

  const pb_kernel* kernels; /* kernel_count kernels, each read up to its own struct_size */
  uint32_t kernel_count;    /* entries in kernels */

  /* ABI 1.1, each optional (NULL: the harness uses timer_start / timer_stop, has no read rate for
   * this memory space, records no team). */
  /* Starts a sample like timer_start; flags are PB_TIMER_* bits. A GPU plugin holds the sample's
   * start behind a blocking kernel until timer_end, so the host's enqueue is not timed. */
  pb_status (*timer_begin)(void* session, uint32_t flags, pb_error* error);
  /* Ends the sample begun by timer_begin: waits for the work, fills *timing. */
  pb_status (*timer_end)(void* session, pb_sample_timing* timing, pb_error* error);
  /* Reads `bytes` of the plugin's memory without writing it (e.g. a sum that is discarded); used to
   * calibrate the read-only peak bandwidth. May be asynchronous. */
  pb_status (*read_within)(void* session, const void* source, uint64_t bytes, pb_error* error);
  /* Fills *context: the team that runs this session's kernels. */
  pb_status (*execution_context)(void* session, pb_execution_context* context, pb_error* error);
} pb_plugin;

/* The entry: called once with the harness's ABI version; returns the plugin's table, or NULL with a
 * message when the plugin refuses to run under this harness. */
typedef const pb_plugin* (*pb_entry_fn)(uint16_t harness_abi_major, uint16_t harness_abi_minor,
                                        pb_error* error);

#ifdef __cplusplus
}
#endif

#endif /* PLUGBENCH_PLUGIN_API_H */
