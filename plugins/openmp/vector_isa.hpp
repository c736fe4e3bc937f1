// vector_isa.hpp: one kernel body compiled for several vector instruction sets and run in the
// widest one this CPU has, so that the build never assumes the build machine's ISA.
// PLUGBENCH_OPENMP_ISA=baseline|avx2|avx512 asks for a narrower one: how the tests run, on any
// CPU, the code that a CPU without AVX-512 (or without AVX2) runs.
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <cstdlib>
#include <string>

// Marks the lambda given to run_in_vector_isa: inlined into each ISA's function, it is compiled
// once per ISA (a function the compiler did not inline would run the baseline's code).
#define PLUGBENCH_VECTOR_BODY __attribute__((always_inline))

namespace plugbench::openmp {

enum class VectorIsa { baseline, avx2, avx512 };

inline const char* to_string(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::avx512:
      return "avx512";
    case VectorIsa::avx2:
      return "avx2";
    case VectorIsa::baseline:
      break;
  }
  return "baseline";
}

inline VectorIsa widest_vector_isa() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (__builtin_cpu_supports("avx512f")) return VectorIsa::avx512;
  if (__builtin_cpu_supports("avx2")) return VectorIsa::avx2;
#endif
  return VectorIsa::baseline;
}

// The widest ISA, or the one PLUGBENCH_OPENMP_ISA names; throws for a name it does not know and
// for an ISA this CPU cannot run.
inline VectorIsa chosen_vector_isa() {
  static const VectorIsa chosen = [] {
    const VectorIsa widest = widest_vector_isa();
    const char* asked = std::getenv("PLUGBENCH_OPENMP_ISA");
    if (asked == nullptr || *asked == '\0') return widest;
    const std::string name = asked;
    for (VectorIsa isa : {VectorIsa::baseline, VectorIsa::avx2, VectorIsa::avx512}) {
      if (name != to_string(isa)) continue;
      if (isa > widest) {
        throw sdk::unsupported("PLUGBENCH_OPENMP_ISA=" + name + ": this CPU runs at most " +
                               to_string(widest));
      }
      return isa;
    }
    throw sdk::Failure(PB_ERROR, "PLUGBENCH_OPENMP_ISA=" + name.substr(0, 32) +
                                     " is not one of baseline, avx2, avx512 (or unset: the "
                                     "widest this CPU runs)");
  }();
  return chosen;
}

// For the results file: the ISA the kernels run in, or why none can.
inline std::string describe_vector_isa() {
  try {
    return to_string(chosen_vector_isa());
  } catch (const std::exception& error) {
    return std::string("none: ") + error.what();
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
template <class Body>
[[gnu::target("avx512f")]] auto run_in_avx512(const Body& body) {
  return body();
}
template <class Body>
[[gnu::target("avx2")]] auto run_in_avx2(const Body& body) {
  return body();
}
#endif

// Runs body(), a lambda marked PLUGBENCH_VECTOR_BODY, compiled for `isa`. Kernels ask for
// chosen_vector_isa() before their parallel region: an exception must not leave one.
template <class Body>
auto run_in_vector_isa(VectorIsa isa, const Body& body) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  switch (isa) {
    case VectorIsa::avx512:
      return run_in_avx512(body);
    case VectorIsa::avx2:
      return run_in_avx2(body);
    case VectorIsa::baseline:
      break;
  }
#else
  (void)isa;
#endif
  return body();
}

}  // namespace plugbench::openmp
