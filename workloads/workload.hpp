// workload.hpp: what the harness knows about a workload: its inputs (named distributions, fixed
// seeds), an exact reference, a verifier and a traffic model. Workloads belong to the harness,
// never to a plugin, so every backend (cpu_serial too) is checked the same way.
#pragma once

#include <plugbench/plugin_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace plugbench {

enum class ElementType { uint8, int32, uint32, int64, uint64, float32, float64 };

std::size_t element_size(ElementType type);
const char* element_name(ElementType type);

// A typed array in host memory: an input the harness generates, or an output it reads back.
class HostArray {
 public:
  HostArray() = default;
  HostArray(std::string name, ElementType type, std::uint64_t count)
      : name_(std::move(name)), type_(type), count_(count), bytes_(count * element_size(type)) {}

  const std::string& name() const { return name_; }
  ElementType type() const { return type_; }
  std::uint64_t count() const { return count_; }
  std::uint64_t size_bytes() const { return bytes_.size(); }
  void* data() { return bytes_.data(); }
  const void* data() const { return bytes_.data(); }

  template <class T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(bytes_.data()), static_cast<std::size_t>(count_)};
  }
  template <class T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(bytes_.data()), static_cast<std::size_t>(count_)};
  }
  // Fills every byte with `value` (used to poison outputs before a checked run).
  void fill_bytes(unsigned char value) {
    if (!bytes_.empty()) std::memset(bytes_.data(), value, bytes_.size());  // data() may be null
  }

 private:
  std::string name_;
  ElementType type_ = ElementType::uint8;
  std::uint64_t count_ = 0;
  std::vector<unsigned char> bytes_;
};

// The size of one problem: n elements, laid out as width x height for image workloads.
struct Shape {
  std::uint64_t n = 0;
  std::uint64_t width = 0;
  std::uint64_t height = 1;
  bool operator==(const Shape&) const = default;
  // Whether n is width x height. A histogram given a count (-s 2^20) lays its n pixels out in
  // rows of at most 7680, the last one short: its n is not a rectangle, and its labels say so.
  bool rectangular() const { return width * height == n; }
};

// Name and layout of an output buffer, before any plugin has written it.
struct OutputSpec {
  std::string name;
  ElementType type;
  std::uint64_t count;
};

// Everything a kernel call needs, on the host: parameters, inputs, the outputs' layout.
struct ProblemData {
  std::string workload;
  std::string distribution;
  Shape shape;
  pb_problem params{};  // the C view for plugins; the runner points params.workload at `workload`
  std::vector<HostArray> inputs;
  std::vector<OutputSpec> outputs;

  std::vector<HostArray> make_outputs() const;
};

// How a workload moves its bytes, which decides the peak its bandwidth is held against: a stream
// that only reads (reduce) runs faster than one that reads and writes (scan), so a read-only
// workload against the copy rate could show more than 100 %.
enum class MemoryPattern { read, copy };
const char* to_string(MemoryPattern pattern);

// Minimum memory traffic of a workload (each input read once, each output written once), and the
// work count for workloads that are not bound by memory (Mandelbrot: iterations).
struct Traffic {
  double bytes_read = 0;
  double bytes_written = 0;
  double work = 0;             // items of work_unit; 0 when not meaningful
  std::string work_unit = "";  // e.g. "iterations"; empty: work is the element count
  MemoryPattern pattern = MemoryPattern::copy;
  double bytes() const { return bytes_read + bytes_written; }
};

// The outcome of checking one plugin's outputs against the reference.
struct Verification {
  bool passed = false;
  std::string compared;       // what was compared, e.g. "sum of 1000 int32 as int64"
  std::string error_measure;  // what `error` counts, e.g. "mismatched elements"
  double error = 0;           // the measured error
  double tolerance = 0;       // the largest error that passes
  std::string detail;         // a human sentence: first mismatch, expected vs got
};

// A workload's exact answer for one problem. Each workload derives its own.
struct Reference {
  virtual ~Reference() = default;
};

class Workload {
 public:
  virtual ~Workload() = default;

  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // A workload solved by several MPI ranks together (distributed_workload.hpp): run only when
  // named, in the ranks' own processes.
  virtual bool distributed() const { return false; }
  // The workload whose plugin kernels compute this one (a distributed workload's local work).
  virtual std::string kernel_workload() const { return name(); }
  // Named input distributions; the first is the default.
  virtual std::vector<std::string> distributions() const = 0;
  // Sizes used when the user gives none, as size expressions ("2^20", "7680x4320"), chosen so
  // that the default run of every workload finishes within a minute on a 2-core machine.
  virtual std::vector<std::string> default_sizes() const = 0;
  // Image workloads take WxH sizes and turn a plain count into an image shape.
  virtual bool is_image() const { return false; }
  virtual Shape shape_for_count(std::uint64_t n) const { return {n, n, 1}; }

  // Inputs for this shape and distribution; deterministic (fixed seeds).
  virtual ProblemData generate(const Shape& shape, const std::string& distribution) const = 0;
  virtual std::shared_ptr<const Reference> reference(const ProblemData& problem) const = 0;
  virtual Verification verify(const ProblemData& problem, const Reference& reference,
                              const std::vector<HostArray>& outputs) const = 0;
  virtual Traffic traffic(const ProblemData& problem, const Reference& reference) const = 0;
  // The host peak its cells are held to (traffic's pattern), known before any problem is made,
  // so that a run calibrates only the peaks its cells need; none for a workload measured in work
  // rather than bytes (Mandelbrot: iterations).
  virtual std::optional<MemoryPattern> peak_pattern() const { return MemoryPattern::copy; }
  // The reference to and from a binary stream (byte_stream.hpp), so that the worker processes of a
  // run compute it once: read_reference(write_reference(r)) verifies exactly as r does.
  virtual void write_reference(const Reference& reference, std::ostream& out) const = 0;
  virtual std::shared_ptr<const Reference> read_reference(std::istream& in) const = 0;
};

// All workloads linked into the program, by name; each workload file registers itself.
class WorkloadRegistry {
 public:
  static WorkloadRegistry& instance();
  void add(std::unique_ptr<Workload> workload);
  const Workload* find(const std::string& name) const;
  std::vector<const Workload*> all() const;  // in a fixed order (see kDisplayOrder in the .cpp)

 private:
  std::map<std::string, std::unique_ptr<Workload>> workloads_;
};

struct WorkloadRegistration {
  explicit WorkloadRegistration(std::unique_ptr<Workload> workload) {
    WorkloadRegistry::instance().add(std::move(workload));
  }
};

// Fills the parts of ProblemData every workload sets the same way.
ProblemData make_problem(const std::string& workload, const std::string& distribution,
                         const Shape& shape);

// Throws std::invalid_argument, naming the valid distributions, when `distribution` is not one of
// the workload's.
void require_distribution(const Workload& workload, const std::string& distribution);

// Each input read once, each output written once in full; work is the element count.
Traffic minimum_traffic(const ProblemData& problem, MemoryPattern pattern);

}  // namespace plugbench

#define PLUGBENCH_REGISTER_WORKLOAD(Type)                                                \
  static const ::plugbench::WorkloadRegistration plugbench_workload_registration_##Type( \
      std::make_unique<Type>())
