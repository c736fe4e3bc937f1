// machine_load.hpp: what else used the machine's CPUs while a cell ran. A shared machine (a cloud
// VM, a CI runner, a lab's node) slows a cell through the neighbours it cannot see; the kernel
// times alone cannot tell that from a slower kernel. The CPU time the whole machine spent (from
// /proc/stat) less what the harness and its workers spent is what others took; steal time is what
// the hypervisor gave to other guests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace plugbench {

// A cell is busy when others took more than this share of all the machine's CPU time while it
// ran, or the hypervisor stole more than kBusyStealShare of it.
inline constexpr double kBusyOthersShare = 0.10;
inline constexpr double kBusyStealShare = 0.05;
// Fewer clock ticks than this over all CPUs (USER_HZ, usually 100 a second per CPU) are too few to
// judge: such a window gets its shares recorded but is never called busy.
inline constexpr std::uint64_t kLeastTicksToJudge = 50;

// CPU time in clock ticks, summed over every CPU, at one moment.
struct CpuTimes {
  std::uint64_t total = 0;  // every state, idle included
  std::uint64_t busy = 0;   // user, nice, system, irq, softirq: time any process spent
  std::uint64_t steal = 0;  // taken by the hypervisor for other guests
  std::uint64_t ours = 0;   // this process and its descendants (reaped ones included)
};

// Now, or nullopt where /proc/stat cannot be read (not Linux).
std::optional<CpuTimes> cpu_times_now();

// What others did between two moments.
struct MachineLoad {
  double others_share = 0;  // of all CPU time in the window, spent by processes not ours
  double steal_share = 0;   // of all CPU time in the window, stolen by the hypervisor
  double load_average = 0;  // the 1-minute load average at the window's end
  bool judged = false;      // enough ticks to say busy or not
  bool busy = false;
};

MachineLoad load_between(const CpuTimes& before, const CpuTimes& after, double load_average);
// The 1-minute load average, or 0 where it cannot be read.
double load_average_now();

// "other processes used 35 % of the CPUs, steal 0 %": for a table note and compare's reason.
std::string describe(const MachineLoad& load);

}  // namespace plugbench
