// test_gpu_telemetry.cpp: NVML telemetry is optional (open() explains why there is none), the
// difference of two readings is right and never negative, it round-trips through JSON, and against
// a fake libnvidia-ml (fake_nvml.cpp) devices are found and read end to end.
#include "fake_nvml.hpp"
#include "measure/gpu_telemetry.hpp"
#include "test_support.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::contains;
using std::chrono::milliseconds;

// --- Opening without NVML ---------------------------------------------------------------------

TEST(GpuTelemetrySource, OpenFailsWithAReasonNamingNvmlWhereThereIsNone) {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(nvml);
    GTEST_SKIP() << "libnvidia-ml.so.1 is installed on this machine, so open() may succeed";
  }
  std::string why_not;
  EXPECT_EQ(GpuTelemetrySource::open("0000:19:00.0", "", why_not), nullptr);
  EXPECT_TRUE(contains(why_not, "NVML not found")) << why_not;
  EXPECT_TRUE(contains(why_not, "libnvidia-ml.so.1")) << why_not;
  // Asking again gives the same answer: a failure is not cached as a half-open library.
  std::string again;
  EXPECT_EQ(GpuTelemetrySource::open("", "GPU-1", again), nullptr);
  EXPECT_EQ(again, why_not);
}

TEST(GpuTelemetrySource, AMissingLibraryIsNamedInTheReason) {
  std::string why_not;
  EXPECT_EQ(open_gpu_telemetry_from("/nonexistent/libnvidia-ml.so.1", "0000:19:00.0", "", why_not),
            nullptr);
  EXPECT_TRUE(contains(why_not, "NVML not found")) << why_not;
  EXPECT_TRUE(contains(why_not, "/nonexistent/libnvidia-ml.so.1")) << why_not;
}

TEST(GpuTelemetrySource, NeedsABusIdOrAUuid) {
  std::string why_not;
  EXPECT_EQ(open_gpu_telemetry_from("/nonexistent/libnvidia-ml.so.1", "", "", why_not), nullptr);
  EXPECT_TRUE(contains(why_not, "PCI bus id or UUID")) << why_not;
}

// --- Differences of two snapshots -------------------------------------------------------------

GpuTelemetrySnapshot full_snapshot(std::chrono::steady_clock::time_point taken) {
  GpuTelemetrySnapshot s;
  s.taken = taken;
  s.energy_mj = 1'000'000;
  s.power_mw = 300'000;
  s.temperature_c = 40;
  s.sm_clock_mhz = 1980;
  s.power_violation_ns = 5'000'000;
  s.thermal_violation_ns = 7'000'000;
  s.clock_event_reasons = 0;
  return s;
}

TEST(TelemetryBetween, GivesEnergyMeanPowerViolationsTemperaturesAndReasons) {
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::seconds(100);
  GpuTelemetrySnapshot start = full_snapshot(t0);
  GpuTelemetrySnapshot end = full_snapshot(t0 + milliseconds(2500));
  end.energy_mj = *start.energy_mj + 1'250'000;  // 1250 J over 2.5 s: 500 W
  end.power_mw = 600'000;
  end.temperature_c = 67;
  end.power_violation_ns = *start.power_violation_ns + 12'500'000;  // 12.5 ms
  end.thermal_violation_ns = *start.thermal_violation_ns;           // none
  end.clock_event_reasons = 0x4 | 0x40;  // sw_power_cap, hw_thermal_slowdown

  const GpuTelemetry t = telemetry_between(start, end);
  EXPECT_DOUBLE_EQ(t.seconds, 2.5);
  ASSERT_TRUE(t.energy_j);
  EXPECT_DOUBLE_EQ(*t.energy_j, 1250.0);
  ASSERT_TRUE(t.mean_power_w);
  EXPECT_DOUBLE_EQ(*t.mean_power_w, 500.0);  // from the energy, not the power readings (450 W)
  EXPECT_EQ(t.temperature_start_c, 40u);
  EXPECT_EQ(t.temperature_end_c, 67u);
  ASSERT_TRUE(t.power_violation_ms);
  EXPECT_DOUBLE_EQ(*t.power_violation_ms, 12.5);
  ASSERT_TRUE(t.thermal_violation_ms);
  EXPECT_DOUBLE_EQ(*t.thermal_violation_ms, 0.0);
  EXPECT_EQ(t.clock_event_reasons,
            (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
  EXPECT_FALSE(t.energy_per_call_j);  // the caller's to set
}

TEST(TelemetryBetween, MeanPowerFallsBackToThePowerReadingsWithoutTheEnergyCounter) {
  const auto t0 = std::chrono::steady_clock::now();
  GpuTelemetrySnapshot start = full_snapshot(t0);
  GpuTelemetrySnapshot end = full_snapshot(t0 + milliseconds(10));
  start.energy_mj.reset();
  end.power_mw = 500'000;
  const GpuTelemetry t = telemetry_between(start, end);
  EXPECT_FALSE(t.energy_j);
  ASSERT_TRUE(t.mean_power_w);
  EXPECT_DOUBLE_EQ(*t.mean_power_w, 400.0);
}

TEST(TelemetryBetween, MeanPowerFallsBackToThePowerReadingsOverAWindowTooShortForEnergy) {
  const auto t0 = std::chrono::steady_clock::now();
  GpuTelemetrySnapshot start = full_snapshot(t0);
  GpuTelemetrySnapshot end = full_snapshot(t0 + milliseconds(999));
  end.energy_mj = *start.energy_mj + 12'000;  // one of the counter's steps: not this window's
  end.power_mw = 100'000;
  const GpuTelemetry t = telemetry_between(start, end);
  EXPECT_FALSE(t.energy_j);
  ASSERT_TRUE(t.mean_power_w);
  EXPECT_DOUBLE_EQ(*t.mean_power_w, 200.0);
}

TEST(TelemetryBetween, FieldsASnapshotLacksStayEmpty) {
  const auto t0 = std::chrono::steady_clock::now();
  GpuTelemetrySnapshot start = full_snapshot(t0);
  GpuTelemetrySnapshot end;
  end.taken = t0 + milliseconds(1000);
  GpuTelemetry t = telemetry_between(start, end);
  EXPECT_DOUBLE_EQ(t.seconds, 1.0);
  EXPECT_FALSE(t.energy_j);
  EXPECT_FALSE(t.mean_power_w);
  EXPECT_EQ(t.temperature_start_c, 40u);
  EXPECT_FALSE(t.temperature_end_c);
  EXPECT_FALSE(t.power_violation_ms);
  EXPECT_FALSE(t.thermal_violation_ms);
  EXPECT_TRUE(t.clock_event_reasons.empty());

  // Only one power reading: no mean of two.
  end.power_mw = 100'000;
  start.energy_mj.reset();
  start.power_mw.reset();
  t = telemetry_between(start, end);
  EXPECT_FALSE(t.mean_power_w);
}

TEST(TelemetryBetween, CountersGoingBackwardsGiveEmptyNotNegative) {
  const auto t0 = std::chrono::steady_clock::now();
  GpuTelemetrySnapshot start = full_snapshot(t0);
  GpuTelemetrySnapshot end = full_snapshot(t0 + milliseconds(1000));
  // The driver reloaded (or a counter wrapped) between the two readings.
  end.energy_mj = *start.energy_mj - 1;
  end.power_violation_ns = 0;
  end.thermal_violation_ns = *start.thermal_violation_ns - 1;
  end.power_mw = 200'000;
  const GpuTelemetry t = telemetry_between(start, end);
  EXPECT_FALSE(t.energy_j);
  EXPECT_FALSE(t.power_violation_ms);
  EXPECT_FALSE(t.thermal_violation_ms);
  ASSERT_TRUE(t.mean_power_w);  // the power readings still stand
  EXPECT_DOUBLE_EQ(*t.mean_power_w, 250.0);

  // Near the top of the range too: no modular arithmetic sneaks a huge value in.
  start.energy_mj = ~0ULL - 5;
  end.energy_mj = 3;
  EXPECT_FALSE(telemetry_between(start, end).energy_j);
}

TEST(TelemetryBetween, NamesEveryDocumentedReasonBitAndKeepsUnknownOnes) {
  const auto t0 = std::chrono::steady_clock::now();
  GpuTelemetrySnapshot start = full_snapshot(t0);
  GpuTelemetrySnapshot end = full_snapshot(t0);
  end.clock_event_reasons = 0x1FF | (1ULL << 12);
  EXPECT_EQ(telemetry_between(start, end).clock_event_reasons,
            (std::vector<std::string>{"gpu_idle", "applications_clocks_setting", "sw_power_cap",
                                      "hw_slowdown", "sync_boost", "sw_thermal_slowdown",
                                      "hw_thermal_slowdown", "hw_power_brake_slowdown",
                                      "display_clock_setting", "bit_12"}));
  // Only the end snapshot's reasons count.
  start.clock_event_reasons = 0x20;
  end.clock_event_reasons = 0x0;
  EXPECT_TRUE(telemetry_between(start, end).clock_event_reasons.empty());
}

// --- JSON --------------------------------------------------------------------------------------

TEST(GpuTelemetryJson, AbsentValuesAreNullAndReasonsAnArray) {
  GpuTelemetry t;
  t.seconds = 1.5;
  t.temperature_end_c = 55;
  const nlohmann::json j = to_json(t);
  EXPECT_EQ(j.at("seconds"), 1.5);
  EXPECT_TRUE(j.at("energy_j").is_null());
  EXPECT_TRUE(j.at("mean_power_w").is_null());
  EXPECT_TRUE(j.at("temperature_start_c").is_null());
  EXPECT_EQ(j.at("temperature_end_c"), 55);
  EXPECT_TRUE(j.at("power_violation_ms").is_null());
  EXPECT_TRUE(j.at("thermal_violation_ms").is_null());
  EXPECT_TRUE(j.at("energy_per_call_j").is_null());
  EXPECT_TRUE(j.at("clock_event_reasons").is_array());
  EXPECT_TRUE(j.at("clock_event_reasons").empty());
}

void expect_same(const GpuTelemetry& a, const GpuTelemetry& b) {
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.energy_j, b.energy_j);
  EXPECT_EQ(a.mean_power_w, b.mean_power_w);
  EXPECT_EQ(a.temperature_start_c, b.temperature_start_c);
  EXPECT_EQ(a.temperature_end_c, b.temperature_end_c);
  EXPECT_EQ(a.power_violation_ms, b.power_violation_ms);
  EXPECT_EQ(a.thermal_violation_ms, b.thermal_violation_ms);
  EXPECT_EQ(a.clock_event_reasons, b.clock_event_reasons);
  EXPECT_EQ(a.energy_per_call_j, b.energy_per_call_j);
}

TEST(GpuTelemetryJson, RoundTripsFullAndEmpty) {
  GpuTelemetry full;
  full.seconds = 0.123456789012345;
  full.energy_j = 1234.5678901234;
  full.mean_power_w = 612.1;
  full.temperature_start_c = 41;
  full.temperature_end_c = 68;
  full.power_violation_ms = 12.5;
  full.thermal_violation_ms = 0;
  full.clock_event_reasons = {"sw_power_cap", "bit_12"};
  full.energy_per_call_j = 1e-3 / 3;
  for (const GpuTelemetry& t : {full, GpuTelemetry{}}) {
    const std::optional<GpuTelemetry> back = gpu_telemetry_from_json(to_json(t));
    ASSERT_TRUE(back);
    expect_same(*back, t);
    // Through text as well, as a results file stores it.
    const std::optional<GpuTelemetry> read =
        gpu_telemetry_from_json(nlohmann::json::parse(to_json(t).dump()));
    ASSERT_TRUE(read);
    expect_same(*read, t);
  }
}

TEST(GpuTelemetryJson, NullIsNoTelemetry) {
  EXPECT_FALSE(gpu_telemetry_from_json(nlohmann::json(nullptr)));
}

// --- A fake libnvidia-ml -----------------------------------------------------------------------

// A fake NVML library held open by the test, so that the harness's dlopen of the same path finds
// the same copy and the script set here is the one it reads.
class FakeNvml {
 public:
  explicit FakeNvml(const char* path) : handle_(dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) return;
    script_ = reinterpret_cast<FakeNvmlScriptFn>(dlsym(handle_, "fake_nvml_script"));
    init_calls_ = reinterpret_cast<FakeNvmlCountFn>(dlsym(handle_, "fake_nvml_init_calls"));
    shutdown_calls_ = reinterpret_cast<FakeNvmlCountFn>(dlsym(handle_, "fake_nvml_shutdown_calls"));
    reset();
  }
  ~FakeNvml() {
    if (handle_) dlclose(handle_);
  }
  FakeNvml(const FakeNvml&) = delete;
  FakeNvml& operator=(const FakeNvml&) = delete;

  bool loaded() const { return handle_ && script_ && init_calls_ && shutdown_calls_; }
  FakeNvmlScript& script() { return *script_(); }
  int init_calls() const { return init_calls_(); }
  int shutdown_calls() const { return shutdown_calls_(); }

  // Device 0000:19:00.0, every query answering.
  void reset() {
    FakeNvmlScript& s = script();
    s = FakeNvmlScript{};
    s.pci_domain = 0;
    s.pci_bus = 0x19;
    s.pci_device = 0;
    s.pci_function = 0;
    std::strcpy(s.uuid, "GPU-5a2c1d7e-0b1f-4c7e-9d3a-2f6b8e4c1a90");
    s.energy_mj = 123'456'789;
    s.power_mw = 312'345;
    s.temperature_c = 47;
    s.sm_clock_mhz = 1980;
    s.power_violation_ns = 11'000'000;
    s.thermal_violation_ns = 22'000'000;
    s.clock_event_reasons = 0x4;
  }

 private:
  void* handle_;
  FakeNvmlScriptFn script_ = nullptr;
  FakeNvmlCountFn init_calls_ = nullptr;
  FakeNvmlCountFn shutdown_calls_ = nullptr;
};

#define LOAD_FAKE(name, path) \
  FakeNvml name(path);        \
  ASSERT_TRUE(name.loaded()) << path << ": " << dlerror()

TEST(FakeNvml, FindsTheDeviceByBusIdAndReadsTheScriptedValues) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML);
  std::string why_not;
  // As cudaDeviceGetPCIBusId spells it (NVML itself writes an 8-digit domain).
  auto source = open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "0000:19:00.0", "", why_not);
  ASSERT_NE(source, nullptr) << why_not;
  const auto before = std::chrono::steady_clock::now();
  const GpuTelemetrySnapshot s = source->read();
  const auto after = std::chrono::steady_clock::now();
  EXPECT_GE(s.taken, before);
  EXPECT_LE(s.taken, after);
  EXPECT_EQ(s.energy_mj, 123'456'789u);
  EXPECT_EQ(s.power_mw, 312'345u);
  EXPECT_EQ(s.temperature_c, 47u);
  EXPECT_EQ(s.sm_clock_mhz, 1980u);
  EXPECT_EQ(s.power_violation_ns, 11'000'000u);
  EXPECT_EQ(s.thermal_violation_ns, 22'000'000u);
  EXPECT_EQ(s.clock_event_reasons, 0x4u);

  EXPECT_NE(open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "00000000:19:00.0", "", why_not), nullptr)
      << why_not;
}

TEST(FakeNvml, AnotherBusIdIsNotFoundAndTheUuidIsNotConsultedThen) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML);
  std::string why_not;
  EXPECT_EQ(
      open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "0000:1a:00.0", fake.script().uuid, why_not),
      nullptr);
  EXPECT_TRUE(contains(why_not, "no NVML device with PCI bus id 0000:1a:00.0")) << why_not;
  EXPECT_TRUE(contains(why_not, "Not Found")) << why_not;  // nvmlErrorString's words
}

TEST(FakeNvml, FindsTheDeviceByUuidWithoutABusId) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML);
  std::string why_not;
  auto source = open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "", fake.script().uuid, why_not);
  ASSERT_NE(source, nullptr) << why_not;
  EXPECT_EQ(source->read().temperature_c, 47u);

  EXPECT_EQ(open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "", "GPU-nope", why_not), nullptr);
  EXPECT_TRUE(contains(why_not, "no NVML device with UUID GPU-nope")) << why_not;
}

TEST(FakeNvml, FailedQueriesLeaveTheirFieldsEmpty) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML);
  std::string why_not;
  auto source = open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "0000:19:00.0", "", why_not);
  ASSERT_NE(source, nullptr) << why_not;
  FakeNvmlScript& s = fake.script();
  s.energy_status = kFakeNvmlNotSupported;
  s.power_status = kFakeNvmlNotSupported;
  s.temperature_status = kFakeNvmlNotSupported;
  s.clock_status = kFakeNvmlNotSupported;
  s.violation_status = kFakeNvmlNotSupported;
  s.reasons_status = kFakeNvmlNotSupported;
  const GpuTelemetrySnapshot empty = source->read();
  EXPECT_FALSE(empty.energy_mj);
  EXPECT_FALSE(empty.power_mw);
  EXPECT_FALSE(empty.temperature_c);
  EXPECT_FALSE(empty.sm_clock_mhz);
  EXPECT_FALSE(empty.power_violation_ns);
  EXPECT_FALSE(empty.thermal_violation_ns);
  EXPECT_FALSE(empty.clock_event_reasons);
  fake.reset();
}

TEST(FakeNvml, InitialisesOncePerProcessAndNeverShutsDown) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML);
  std::string why_not;
  auto first = open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "0000:19:00.0", "", why_not);
  auto second = open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "", fake.script().uuid, why_not);
  ASSERT_NE(first, nullptr) << why_not;
  ASSERT_NE(second, nullptr) << why_not;
  first.reset();  // one source going away leaves NVML up for the other
  EXPECT_EQ(second->read().power_mw, 312'345u);
  EXPECT_EQ(fake.init_calls(), 1);
  EXPECT_EQ(fake.shutdown_calls(), 0);
}

TEST(FakeNvml, TwoReadingsGiveTheCellsTelemetry) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML);
  std::string why_not;
  auto source = open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML, "0000:19:00.0", "", why_not);
  ASSERT_NE(source, nullptr) << why_not;
  FakeNvmlScript& s = fake.script();
  const GpuTelemetrySnapshot start = source->read();
  s.energy_mj += 4'000;
  s.power_violation_ns += 3'000'000;
  s.temperature_c = 61;
  s.clock_event_reasons = 0x20 | 0x80;
  GpuTelemetrySnapshot end = source->read();
  end.taken = start.taken + milliseconds(2000);  // a window long enough for the energy counter
  const GpuTelemetry t = telemetry_between(start, end);
  ASSERT_TRUE(t.energy_j);
  EXPECT_DOUBLE_EQ(*t.energy_j, 4.0);
  ASSERT_TRUE(t.mean_power_w);
  EXPECT_DOUBLE_EQ(*t.mean_power_w, 2.0);
  EXPECT_EQ(t.temperature_start_c, 47u);
  EXPECT_EQ(t.temperature_end_c, 61u);
  ASSERT_TRUE(t.power_violation_ms);
  EXPECT_DOUBLE_EQ(*t.power_violation_ms, 3.0);
  ASSERT_TRUE(t.thermal_violation_ms);
  EXPECT_DOUBLE_EQ(*t.thermal_violation_ms, 0.0);
  EXPECT_EQ(t.clock_event_reasons,
            (std::vector<std::string>{"sw_thermal_slowdown", "hw_power_brake_slowdown"}));
  fake.reset();
}

TEST(FakeNvml, AnOlderDriverGivesThrottleReasonsAndNoEnergy) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML_OLD_DRIVER);
  fake.script().clock_event_reasons = 0x8;
  std::string why_not;
  auto source =
      open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML_OLD_DRIVER, "0000:19:00.0", "", why_not);
  ASSERT_NE(source, nullptr) << why_not;
  const GpuTelemetrySnapshot s = source->read();
  EXPECT_FALSE(s.energy_mj);  // no nvmlDeviceGetTotalEnergyConsumption
  EXPECT_EQ(s.power_mw, 312'345u);
  EXPECT_EQ(s.clock_event_reasons, 0x8u);  // through nvmlDeviceGetCurrentClocksThrottleReasons
}

TEST(FakeNvml, AFailedInitIsExplainedInNvmlsWords) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML_INIT_FAILS);
  std::string why_not;
  EXPECT_EQ(open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML_INIT_FAILS, "0000:19:00.0", "", why_not),
            nullptr);
  EXPECT_EQ(why_not, "nvmlInit_v2 failed: Driver Not Loaded");
}

TEST(FakeNvml, ALibraryWithoutNvmlInitV2IsRefused) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML_NO_INIT);
  std::string why_not;
  EXPECT_EQ(open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML_NO_INIT, "0000:19:00.0", "", why_not),
            nullptr);
  EXPECT_TRUE(contains(why_not, "nvmlInit_v2")) << why_not;
  EXPECT_EQ(fake.init_calls(), 0);  // nor does it settle for the old nvmlInit
}

TEST(FakeNvml, ALibraryWithoutTheHandleLookupIsRefused) {
  LOAD_FAKE(fake, PLUGBENCH_FAKE_NVML_NO_LOOKUP);
  std::string why_not;
  EXPECT_EQ(open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML_NO_LOOKUP, "0000:19:00.0", "", why_not),
            nullptr);
  EXPECT_TRUE(contains(why_not, "nvmlDeviceGetHandleByPciBusId_v2")) << why_not;
  EXPECT_EQ(open_gpu_telemetry_from(PLUGBENCH_FAKE_NVML_NO_LOOKUP, "", "GPU-1", why_not), nullptr);
  EXPECT_TRUE(contains(why_not, "nvmlDeviceGetHandleByUUID")) << why_not;
}

}  // namespace
}  // namespace plugbench
