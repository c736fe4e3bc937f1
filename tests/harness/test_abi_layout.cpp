// test_abi_layout.cpp: pins the plugin ABI 1.1 of plugin_api.h as documented: the size and offset
// of every field of every struct, the signature of every function pointer, and every enum value,
// on LP64 Linux (x86-64, aarch64), the platforms plugbench builds for.
//
// A failure here means the binary contract changed, and plugins built against the old header
// would be misread by this harness (or the reverse). If the change is intended:
//   - a field changed meaning, size, type or position, or one was removed or inserted: bump
//     PB_ABI_MAJOR (the harness then refuses older plugins) and reset PB_ABI_MINOR to 0;
//   - fields were appended at the end of a struct (nothing else moved): bump PB_ABI_MINOR (the
//     harness reads older plugins' tables up to their struct_size);
// then update the numbers below, and docs/writing-a-plugin.md.
#include <plugbench/plugin_api.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

namespace {

constexpr bool kLp64 = sizeof(void*) == 8 && sizeof(long) == 8;

#define EXPECT_FIELD(type, field, offset, size)            \
  do {                                                     \
    EXPECT_EQ(offsetof(type, field), std::size_t{offset}); \
    EXPECT_EQ(sizeof(type::field), std::size_t{size});     \
  } while (0)

#define EXPECT_FIELD_TYPE(type, field, expected) \
  static_assert(std::is_same_v<decltype(type::field), expected>, #type "::" #field)

TEST(AbiLayout, VersionAndEntrySymbol) {
  EXPECT_EQ(PB_ABI_MAJOR, 1);
  EXPECT_EQ(PB_ABI_MINOR, 1);
  EXPECT_STREQ(PB_ENTRY_SYMBOL, "plugbench_plugin_entry");
  static_assert(std::is_same_v<pb_entry_fn, const pb_plugin* (*)(uint16_t, uint16_t, pb_error*)>);
}

TEST(AbiLayout, EnumValues) {
  EXPECT_EQ(sizeof(pb_status), 4u);
  EXPECT_EQ(PB_OK, 0);
  EXPECT_EQ(PB_ERROR, 1);
  EXPECT_EQ(PB_UNSUPPORTED, 2);
  EXPECT_EQ(PB_OUT_OF_MEMORY, 3);
  EXPECT_EQ(PB_UNAVAILABLE, 4);
  EXPECT_EQ(sizeof(pb_memory_space), 4u);
  EXPECT_EQ(PB_MEMORY_HOST, 0);
  EXPECT_EQ(PB_MEMORY_DEVICE, 1);
  EXPECT_EQ(sizeof(pb_host_memory), 4u);
  EXPECT_EQ(PB_HOST_PAGEABLE, 0);
  EXPECT_EQ(PB_HOST_PINNED, 1);
  EXPECT_EQ(PB_KERNEL_SYNCHRONIZES_HOST, 1u);
  EXPECT_EQ(PB_KERNEL_ALLOCATES, 2u);
  EXPECT_EQ(PB_KERNEL_OPT_IN, 4u);
  EXPECT_EQ(PB_TIMER_HOST_WAITS, 1u);
  EXPECT_EQ(sizeof(pb_timer_hold), 4u);
  EXPECT_EQ(PB_HOLD_NONE, 0);
  EXPECT_EQ(PB_HOLD_RELEASED, 1);
  EXPECT_EQ(PB_HOLD_TIMED_OUT, 2);
}

TEST(AbiLayout, Error) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_error), 16u);
  EXPECT_FIELD(pb_error, message, 0, 8);
  EXPECT_FIELD(pb_error, capacity, 8, 8);
  EXPECT_FIELD_TYPE(pb_error, message, char*);
  EXPECT_FIELD_TYPE(pb_error, capacity, size_t);
}

TEST(AbiLayout, DeviceInfo) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_device_info), 576u);
  EXPECT_FIELD(pb_device_info, struct_size, 0, 4);
  EXPECT_FIELD(pb_device_info, name, 4, 256);
  EXPECT_FIELD(pb_device_info, architecture, 260, 64);
  EXPECT_FIELD(pb_device_info, memory_bytes, 328, 8);
  EXPECT_FIELD(pb_device_info, multiprocessors, 336, 4);
  EXPECT_FIELD(pb_device_info, clock_khz, 340, 4);
  EXPECT_FIELD(pb_device_info, memory_clock_khz, 344, 4);
  EXPECT_FIELD(pb_device_info, memory_bus_bits, 348, 4);
  EXPECT_FIELD(pb_device_info, l2_bytes, 352, 8);
  EXPECT_FIELD(pb_device_info, driver_version, 360, 64);
  EXPECT_FIELD(pb_device_info, runtime_version, 424, 64);
  EXPECT_FIELD(pb_device_info, index, 488, 4);
  EXPECT_FIELD(pb_device_info, uuid, 492, 48);        // ABI 1.1
  EXPECT_FIELD(pb_device_info, pci_bus_id, 540, 32);  // ABI 1.1
  EXPECT_FIELD_TYPE(pb_device_info, struct_size, uint32_t);
  EXPECT_FIELD_TYPE(pb_device_info, name, char[256]);
  EXPECT_FIELD_TYPE(pb_device_info, architecture, char[64]);
  EXPECT_FIELD_TYPE(pb_device_info, memory_bytes, uint64_t);
  EXPECT_FIELD_TYPE(pb_device_info, multiprocessors, uint32_t);
  EXPECT_FIELD_TYPE(pb_device_info, clock_khz, uint32_t);
  EXPECT_FIELD_TYPE(pb_device_info, memory_clock_khz, uint32_t);
  EXPECT_FIELD_TYPE(pb_device_info, memory_bus_bits, uint32_t);
  EXPECT_FIELD_TYPE(pb_device_info, l2_bytes, uint64_t);
  EXPECT_FIELD_TYPE(pb_device_info, driver_version, char[64]);
  EXPECT_FIELD_TYPE(pb_device_info, runtime_version, char[64]);
  EXPECT_FIELD_TYPE(pb_device_info, index, int32_t);
  EXPECT_FIELD_TYPE(pb_device_info, uuid, char[48]);
  EXPECT_FIELD_TYPE(pb_device_info, pci_bus_id, char[32]);
}

TEST(AbiLayout, SampleTiming) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_sample_timing), 32u);
  EXPECT_FIELD(pb_sample_timing, struct_size, 0, 4);
  EXPECT_FIELD(pb_sample_timing, hold, 4, 4);
  EXPECT_FIELD(pb_sample_timing, elapsed_ms, 8, 8);
  EXPECT_FIELD(pb_sample_timing, sm_clock_khz, 16, 8);
  EXPECT_FIELD(pb_sample_timing, clock_window_ms, 24, 8);
  EXPECT_FIELD_TYPE(pb_sample_timing, hold, pb_timer_hold);
  EXPECT_FIELD_TYPE(pb_sample_timing, elapsed_ms, double);
}

TEST(AbiLayout, ExecutionContext) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_execution_context), 264u);
  EXPECT_FIELD(pb_execution_context, struct_size, 0, 4);
  EXPECT_FIELD(pb_execution_context, threads, 4, 4);
  EXPECT_FIELD(pb_execution_context, binding, 8, 64);
  EXPECT_FIELD(pb_execution_context, places, 72, 192);
}

TEST(AbiLayout, Problem) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_problem), 80u);
  EXPECT_FIELD(pb_problem, struct_size, 0, 4);
  EXPECT_FIELD(pb_problem, workload, 8, 8);
  EXPECT_FIELD(pb_problem, n, 16, 8);
  EXPECT_FIELD(pb_problem, width, 24, 8);
  EXPECT_FIELD(pb_problem, height, 32, 8);
  EXPECT_FIELD(pb_problem, bins, 40, 4);
  EXPECT_FIELD(pb_problem, max_iterations, 44, 4);
  EXPECT_FIELD(pb_problem, region, 48, 32);
  EXPECT_FIELD_TYPE(pb_problem, struct_size, uint32_t);
  EXPECT_FIELD_TYPE(pb_problem, workload, const char*);
  EXPECT_FIELD_TYPE(pb_problem, n, uint64_t);
  EXPECT_FIELD_TYPE(pb_problem, width, uint64_t);
  EXPECT_FIELD_TYPE(pb_problem, height, uint64_t);
  EXPECT_FIELD_TYPE(pb_problem, bins, uint32_t);
  EXPECT_FIELD_TYPE(pb_problem, max_iterations, uint32_t);
  EXPECT_FIELD_TYPE(pb_problem, region, double[4]);
}

TEST(AbiLayout, Buffers) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_buffers), 48u);
  EXPECT_FIELD(pb_buffers, struct_size, 0, 4);
  EXPECT_FIELD(pb_buffers, input_count, 4, 4);
  EXPECT_FIELD(pb_buffers, inputs, 8, 8);
  EXPECT_FIELD(pb_buffers, output_count, 16, 4);
  EXPECT_FIELD(pb_buffers, outputs, 24, 8);
  EXPECT_FIELD(pb_buffers, workspace, 32, 8);
  EXPECT_FIELD(pb_buffers, workspace_bytes, 40, 8);
  EXPECT_FIELD_TYPE(pb_buffers, struct_size, uint32_t);
  EXPECT_FIELD_TYPE(pb_buffers, input_count, uint32_t);
  EXPECT_FIELD_TYPE(pb_buffers, inputs, const void* const*);
  EXPECT_FIELD_TYPE(pb_buffers, output_count, uint32_t);
  EXPECT_FIELD_TYPE(pb_buffers, outputs, void* const*);
  EXPECT_FIELD_TYPE(pb_buffers, workspace, void*);
  EXPECT_FIELD_TYPE(pb_buffers, workspace_bytes, uint64_t);
}

TEST(AbiLayout, Kernel) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_kernel), 72u);
  EXPECT_FIELD(pb_kernel, struct_size, 0, 4);
  EXPECT_FIELD(pb_kernel, workload, 8, 8);
  EXPECT_FIELD(pb_kernel, variant, 16, 8);
  EXPECT_FIELD(pb_kernel, description, 24, 8);
  EXPECT_FIELD(pb_kernel, flags, 32, 4);
  EXPECT_FIELD(pb_kernel, max_n, 40, 8);
  EXPECT_FIELD(pb_kernel, user_data, 48, 8);
  EXPECT_FIELD(pb_kernel, workspace_bytes, 56, 8);
  EXPECT_FIELD(pb_kernel, run, 64, 8);
  EXPECT_FIELD_TYPE(pb_kernel, struct_size, uint32_t);
  EXPECT_FIELD_TYPE(pb_kernel, workload, const char*);
  EXPECT_FIELD_TYPE(pb_kernel, variant, const char*);
  EXPECT_FIELD_TYPE(pb_kernel, description, const char*);
  EXPECT_FIELD_TYPE(pb_kernel, flags, uint32_t);
  EXPECT_FIELD_TYPE(pb_kernel, max_n, uint64_t);
  EXPECT_FIELD_TYPE(pb_kernel, user_data, const void*);
  EXPECT_FIELD_TYPE(pb_kernel, workspace_bytes,
                    pb_status(*)(const pb_kernel*, void*, const pb_problem*, uint64_t*, pb_error*));
  EXPECT_FIELD_TYPE(
      pb_kernel, run,
      pb_status(*)(const pb_kernel*, void*, const pb_problem*, const pb_buffers*, pb_error*));
}

TEST(AbiLayout, BuildEntry) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_build_entry), 16u);
  EXPECT_FIELD(pb_build_entry, key, 0, 8);
  EXPECT_FIELD(pb_build_entry, value, 8, 8);
  EXPECT_FIELD_TYPE(pb_build_entry, key, const char*);
  EXPECT_FIELD_TYPE(pb_build_entry, value, const char*);
}

TEST(AbiLayout, Plugin) {
  if (!kLp64) GTEST_SKIP() << "the numbers below are LP64's";
  EXPECT_EQ(sizeof(pb_plugin), 216u);
  EXPECT_FIELD(pb_plugin, struct_size, 0, 4);
  EXPECT_FIELD(pb_plugin, abi_major, 4, 2);
  EXPECT_FIELD(pb_plugin, abi_minor, 6, 2);
  EXPECT_FIELD(pb_plugin, name, 8, 8);
  EXPECT_FIELD(pb_plugin, version, 16, 8);
  EXPECT_FIELD(pb_plugin, description, 24, 8);
  EXPECT_FIELD(pb_plugin, build_info, 32, 8);
  EXPECT_FIELD(pb_plugin, build_info_count, 40, 4);
  EXPECT_FIELD(pb_plugin, memory_space, 44, 4);
  EXPECT_FIELD(pb_plugin, probe, 48, 8);
  EXPECT_FIELD(pb_plugin, open, 56, 8);
  EXPECT_FIELD(pb_plugin, close, 64, 8);
  EXPECT_FIELD(pb_plugin, device_info, 72, 8);
  EXPECT_FIELD(pb_plugin, alloc, 80, 8);
  EXPECT_FIELD(pb_plugin, release, 88, 8);
  EXPECT_FIELD(pb_plugin, alloc_host, 96, 8);
  EXPECT_FIELD(pb_plugin, release_host, 104, 8);
  EXPECT_FIELD(pb_plugin, copy_in, 112, 8);
  EXPECT_FIELD(pb_plugin, copy_out, 120, 8);
  EXPECT_FIELD(pb_plugin, copy_within, 128, 8);
  EXPECT_FIELD(pb_plugin, sync, 136, 8);
  EXPECT_FIELD(pb_plugin, timer_start, 144, 8);
  EXPECT_FIELD(pb_plugin, timer_stop, 152, 8);
  EXPECT_FIELD(pb_plugin, flush_cache, 160, 8);
  EXPECT_FIELD(pb_plugin, kernels, 168, 8);
  EXPECT_FIELD(pb_plugin, kernel_count, 176, 4);
  EXPECT_FIELD(pb_plugin, timer_begin, 184, 8);  // ABI 1.1
  EXPECT_FIELD(pb_plugin, timer_end, 192, 8);
  EXPECT_FIELD(pb_plugin, read_within, 200, 8);
  EXPECT_FIELD(pb_plugin, execution_context, 208, 8);
  EXPECT_FIELD_TYPE(pb_plugin, struct_size, uint32_t);
  EXPECT_FIELD_TYPE(pb_plugin, abi_major, uint16_t);
  EXPECT_FIELD_TYPE(pb_plugin, abi_minor, uint16_t);
  EXPECT_FIELD_TYPE(pb_plugin, name, const char*);
  EXPECT_FIELD_TYPE(pb_plugin, version, const char*);
  EXPECT_FIELD_TYPE(pb_plugin, description, const char*);
  EXPECT_FIELD_TYPE(pb_plugin, build_info, const pb_build_entry*);
  EXPECT_FIELD_TYPE(pb_plugin, build_info_count, uint32_t);
  EXPECT_FIELD_TYPE(pb_plugin, memory_space, pb_memory_space);
  EXPECT_FIELD_TYPE(pb_plugin, probe, pb_status(*)(pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, open, pb_status(*)(int32_t, void**, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, close, void (*)(void*));
  EXPECT_FIELD_TYPE(pb_plugin, device_info, pb_status(*)(void*, pb_device_info*, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, alloc, pb_status(*)(void*, uint64_t, void**, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, release, void (*)(void*, void*));
  EXPECT_FIELD_TYPE(pb_plugin, alloc_host,
                    pb_status(*)(void*, uint64_t, pb_host_memory, void**, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, release_host, void (*)(void*, void*, pb_host_memory));
  EXPECT_FIELD_TYPE(pb_plugin, copy_in,
                    pb_status(*)(void*, void*, const void*, uint64_t, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, copy_out,
                    pb_status(*)(void*, void*, const void*, uint64_t, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, copy_within,
                    pb_status(*)(void*, void*, const void*, uint64_t, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, sync, pb_status(*)(void*, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, timer_start, pb_status(*)(void*, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, timer_stop, pb_status(*)(void*, double*, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, flush_cache, pb_status(*)(void*, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, kernels, const pb_kernel*);
  EXPECT_FIELD_TYPE(pb_plugin, kernel_count, uint32_t);
  EXPECT_FIELD_TYPE(pb_plugin, timer_begin, pb_status(*)(void*, uint32_t, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, timer_end, pb_status(*)(void*, pb_sample_timing*, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, read_within, pb_status(*)(void*, const void*, uint64_t, pb_error*));
  EXPECT_FIELD_TYPE(pb_plugin, execution_context,
                    pb_status(*)(void*, pb_execution_context*, pb_error*));
}

}  // namespace
