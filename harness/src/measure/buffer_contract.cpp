// buffer_contract.cpp: the read-back and the byte compares behind find_contract_breaches. Every
// read goes through the plugin's copy_out at an offset into the buffer, so that the same code
// checks host and device memory, and the host never holds more than one chunk of an input at a
// time.
#include "measure/buffer_contract.hpp"

#include <algorithm>
#include <cstring>

namespace plugbench {
namespace {

// Inputs are read back in chunks of this size: a 1 GiB input costs no second gigabyte of host
// memory.
constexpr std::uint64_t kCompareChunkBytes = std::uint64_t{16} << 20;

// The guard's byte at `offset`: a sequence that never holds 0x00 or 0xFF (what an overrun most
// often writes) and does not repeat within a word, so that a stray write almost always changes it.
unsigned char guard_byte(std::uint64_t offset) {
  return static_cast<unsigned char>(1 + (offset * 167 + 200) % 253);
}

const std::vector<unsigned char>& guard_pattern() {
  static const std::vector<unsigned char> pattern = [] {
    std::vector<unsigned char> bytes(kOutputGuardBytes);
    for (std::uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = guard_byte(i);
    return bytes;
  }();
  return pattern;
}

void copy_out_at(const PluginSession& session, void* host_target, const void* buffer,
                 std::uint64_t offset, std::uint64_t bytes) {
  ErrorBuffer error;
  check_call(session.table().copy_out(session.handle(), host_target,
                                      static_cast<const unsigned char*>(buffer) + offset, bytes,
                                      error.get()),
             "copy_out", error);
}

std::string byte_count(std::uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

// "input 0 (keys)": the index and the name the workload's layout table gives it.
std::string buffer_name(const char* kind, std::size_t index, const std::string& name) {
  return std::string(kind) + " " + std::to_string(index) + " (" + name + ")";
}

std::vector<ContractBreach> input_breaches(const PluginSession& session, const ProblemData& problem,
                                           std::span<const void* const> inputs) {
  std::vector<ContractBreach> breaches;
  std::vector<unsigned char> chunk;
  for (std::size_t i = 0; i < inputs.size() && i < problem.inputs.size(); ++i) {
    const HostArray& given = problem.inputs[i];
    const auto* expected = static_cast<const unsigned char*>(given.data());
    const std::uint64_t bytes = given.size_bytes();
    chunk.resize(static_cast<std::size_t>(std::min(bytes, kCompareChunkBytes)));
    std::uint64_t differing = 0;
    std::uint64_t first = 0;
    for (std::uint64_t offset = 0; offset < bytes; offset += chunk.size()) {
      const std::uint64_t length = std::min<std::uint64_t>(chunk.size(), bytes - offset);
      copy_out_at(session, chunk.data(), inputs[i], offset, length);
      if (std::memcmp(chunk.data(), expected + offset, length) == 0) continue;
      for (std::uint64_t b = 0; b < length; ++b) {
        if (chunk[b] == expected[offset + b]) continue;
        if (differing++ == 0) first = offset + b;
      }
    }
    if (differing == 0) continue;
    const std::string name = buffer_name("input", i, given.name());
    breaches.push_back({name + " modified: " + std::to_string(differing) + " of its " +
                            byte_count(bytes) +
                            " differ from what it was given, the first at byte " +
                            std::to_string(first) + " (inputs are read-only)",
                        "bytes changed in " + name, static_cast<double>(differing)});
  }
  return breaches;
}

std::vector<ContractBreach> guard_breaches(const PluginSession& session, const ProblemData& problem,
                                           std::span<void* const> outputs) {
  std::vector<ContractBreach> breaches;
  const std::vector<unsigned char>& pattern = guard_pattern();
  std::vector<unsigned char> guard(pattern.size());
  for (std::size_t i = 0; i < outputs.size() && i < problem.outputs.size(); ++i) {
    const OutputSpec& spec = problem.outputs[i];
    const std::uint64_t bytes = spec.count * element_size(spec.type);
    copy_out_at(session, guard.data(), outputs[i], bytes, guard.size());
    // The last changed byte tells how far the kernel wrote at least (it may have skipped some).
    auto last = std::mismatch(guard.rbegin(), guard.rend(), pattern.rbegin()).first;
    if (last == guard.rend()) continue;
    const auto past = static_cast<std::uint64_t>(guard.rend() - last);
    const std::string name = buffer_name("output", i, spec.name);
    std::string message = "wrote past " + name + " by at least " + byte_count(past) +
                          " (it holds " + byte_count(bytes) + "; ";
    message += past == guard.size()
                   ? "all " + byte_count(guard.size()) +
                         " the harness guards after it were changed: it may have written further, "
                         "over other memory)"
                   : "the guard bytes the harness places after it were changed)";
    breaches.push_back(
        {std::move(message), "bytes written past " + name, static_cast<double>(past)});
  }
  return breaches;
}

}  // namespace

void fill_output_guard(const PluginSession& session, void* output, std::uint64_t bytes) {
  const std::vector<unsigned char>& pattern = guard_pattern();
  ErrorBuffer error;
  check_call(session.table().copy_in(session.handle(), static_cast<unsigned char*>(output) + bytes,
                                     pattern.data(), pattern.size(), error.get()),
             "copy_in", error);
}

std::vector<ContractBreach> find_contract_breaches(const PluginSession& session,
                                                   const ProblemData& problem,
                                                   std::span<const void* const> inputs,
                                                   std::span<void* const> outputs) {
  std::vector<ContractBreach> breaches = input_breaches(session, problem, inputs);
  for (ContractBreach& breach : guard_breaches(session, problem, outputs)) {
    breaches.push_back(std::move(breach));
  }
  return breaches;
}

}  // namespace plugbench
