// noisy_plugin.cpp: a reduce plugin that writes to stdout and stderr, for the tests of what
// becomes of a plugin's output (tests/harness/test_plugin_output.cpp): a few lines (with a
// terminal escape and a byte that is not UTF-8), a 100 MB flood, and a kernel that refuses large
// problems with its own reason. Built with NOISY_ON_LOAD it also prints while it is loaded.
#include <plugbench/host_services.hpp>
#include <plugbench/plugin_sdk.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>

#ifndef NOISY_NAME
#error "NOISY_NAME must name the plugin"
#endif

namespace {

// The right answer: every kernel here is correct, whatever it prints.
void answer(plugbench::sdk::Call& call) {
  const std::int32_t* x = call.input<std::int32_t>(0);
  *call.output<std::int64_t>(0) = std::accumulate(x, x + call.n(), std::int64_t{0});
}

#ifdef NOISY_ON_LOAD
const bool says_hello = [] {
  std::printf("noisy: hello from a static constructor\n");
  std::fprintf(stderr, "noisy: static constructor on stderr\n");
  return true;
}();
#endif

// Through stdio (buffered: nothing reaches the pipe until the worker flushes it), iostreams and
// write(2), on stdout and stderr.
void chatty(plugbench::sdk::Call& call) {
  static bool said = false;
  if (!said) {
    said = true;
    std::printf("chatty: first line on stdout\n");
    std::cout << "chatty: \x1b[31mred\x1b[0m and a bad byte \xff here" << std::endl;
    std::fprintf(stderr, "chatty: a line on stderr\n");
    const char raw[] = "chatty: written with write(2)\n";
    if (::write(STDOUT_FILENO, raw, sizeof raw - 1) < 0) return;
  }
  answer(call);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "chatty",
                  .description = "prints a few lines",
                  .run = chatty});

// 100 MB to stdout on its first call, in lines, then quiet: the harness must neither hang nor
// hold it nor pass it on.
void flood(plugbench::sdk::Call& call) {
  static bool flooded = false;
  if (!flooded) {
    flooded = true;
    std::string line(99, 'x');
    line += '\n';
    std::string block;
    for (int i = 0; i < 10000; ++i) block += line;  // 1 MB
    std::printf("flood: the first line\n");
    for (int i = 0; i < 100; ++i) std::fwrite(block.data(), 1, block.size(), stdout);
  }
  answer(call);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "flood",
                  .description = "writes 100 MB to stdout",
                  .run = flood});

// A limit the kernel reports itself, in its own words, rather than declares (max_n).
void picky(plugbench::sdk::Call& call) {
  if (call.n() > 1000) throw plugbench::sdk::unsupported("needs n <= 1000: one tile of scratch");
  answer(call);
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "picky",
                  .description = "refuses n > 1000 with a reason",
                  .run = picky});

void quiet(plugbench::sdk::Call& call) {
  answer(call);
}
PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "quiet", .description = "correct, silent", .run = quiet});

}  // namespace

PLUGBENCH_PLUGIN(plugbench::sdk::HostServices,
                 {.name = NOISY_NAME, .version = "0.0.1", .description = "noisy"});
