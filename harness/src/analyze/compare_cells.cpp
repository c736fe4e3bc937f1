// compare_cells.cpp: matching cells and deciding each verdict.
#include "analyze/compare_cells.hpp"

#include "analyze/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace plugbench {
namespace {

std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", value);
  return text;
}

// A number a comparison can use: present and finite (a file's null is read back as NaN).
std::optional<double> finite(std::optional<double> value) {
  return value && std::isfinite(*value) ? value : std::nullopt;
}

CellSide side_of(const CellResult& cell) {
  CellSide side;
  side.status = cell.status;
  side.message = cell.message;
  if (cell.kernel) {
    side.median_ms = finite(cell.kernel->median_ms);
    for (double sample : cell.kernel->samples_ms) {
      if (std::isfinite(sample)) side.samples_ms.push_back(sample);
    }
  }
  side.gbps = finite(cell.gbps);
  side.percent_of_peak = finite(cell.percent_of_peak);
  side.machine_load = cell.machine_load;
  return side;
}

// The cells of one file by key; a key seen again gets the next occurrence number.
std::vector<std::pair<CellKey, CellSide>> keyed_cells(const std::vector<CellResult>& cells) {
  std::vector<std::pair<CellKey, CellSide>> keyed;
  std::map<CellKey, int> seen;
  for (const CellResult& cell : cells) {
    CellKey key{cell.workload, cell.distribution, cell.shape.n, cell.plugin, cell.variant};
    key.occurrence = seen[key]++;
    keyed.emplace_back(std::move(key), side_of(cell));
  }
  return keyed;
}

void decide_by_status(CellComparison& c) {
  const CellSide& base = *c.base;
  const CellSide& current = *c.current;
  bool base_failed = base.status == status::failed;
  bool current_failed = current.status == status::failed;
  if (base_failed || current_failed) {
    c.verdict = Verdict::failed;
    c.label = std::string("FAILED (") +
              (base_failed && current_failed ? "both"
               : base_failed                 ? "base"
                                             : "new") +
              ")";
    c.detail = current_failed ? "new: " + current.message : "base: " + base.message;
    c.regression = current_failed && !base_failed;
    return;
  }
  c.verdict = Verdict::not_timed;
  if (!base.median_ms && !current.median_ms && base.status == current.status) {
    c.label = base.status + " in both";
  } else if (!current.median_ms) {
    c.label = current.status + " in new";
  } else {
    c.label = base.status + " in base";
  }
  c.detail = !current.median_ms ? current.message : base.message;
  c.regression = base.median_ms && is_error_status(current.status);
}

void decide_timed(CellComparison& c, const CompareSettings& settings) {
  const CellSide& base = *c.base;
  const CellSide& current = *c.current;
  if (*base.median_ms <= 0 || *current.median_ms <= 0) {
    bool both_zero = *base.median_ms <= 0 && *current.median_ms <= 0;
    c.verdict = both_zero ? Verdict::same : Verdict::noisy;
    c.label = both_zero ? "same" : "too noisy";
    c.detail = "a median of zero: nothing to divide";
    return;
  }
  c.ratio = *current.median_ms / *base.median_ms;
  if (!base.samples_ms.empty() && !current.samples_ms.empty()) {
    c.p_value = mann_whitney_u(base.samples_ms, current.samples_ms).p_value;
  }
  double change = *c.ratio - 1;
  if (std::fabs(change) <= settings.threshold) {
    c.verdict = Verdict::same;
    c.label = "same";
    return;
  }
  // Too noisy to say, unless the test tells the two sets of times apart (p < alpha).
  c.verdict = Verdict::noisy;
  c.label = "too noisy";
  if (!c.p_value) {
    c.detail = std::string("no repetition times (samples_ms) in the ") +
               (base.samples_ms.empty() ? "base" : "new") + " file";
  } else if (smallest_p_value(base.samples_ms.size(), current.samples_ms.size()) >=
             settings.alpha) {
    c.detail = std::to_string(base.samples_ms.size()) + " and " +
               std::to_string(current.samples_ms.size()) +
               " repetitions are too few to reach p < " + short_number(settings.alpha);
  } else if (*c.p_value < settings.alpha) {
    c.verdict = change > 0 ? Verdict::slower : Verdict::faster;
    c.label = change > 0 ? "slower" : "faster";
    c.regression = change > 0;
  }
  // Other processes took the machine while one side ran: the difference may be theirs.
  if (c.verdict == Verdict::slower || c.verdict == Verdict::faster) {
    for (const auto& [side, name] : {std::pair{&base, "base"}, std::pair{&current, "new"}}) {
      if (!side->machine_load || !side->machine_load->busy) continue;
      c.verdict = Verdict::noisy;
      c.label = "too noisy";
      c.regression = false;
      c.detail = std::string("the machine was busy while the ") + name +
                 " run measured it: " + describe(*side->machine_load);
      break;
    }
  }
}

}  // namespace

std::vector<CellComparison> compare_cells(const std::vector<CellResult>& base_cells,
                                          const std::vector<CellResult>& current_cells,
                                          const CompareSettings& settings) {
  std::vector<std::pair<CellKey, CellSide>> base = keyed_cells(base_cells);
  std::vector<std::pair<CellKey, CellSide>> current = keyed_cells(current_cells);
  std::map<CellKey, const CellSide*> current_by_key;
  for (const auto& [key, side] : current) current_by_key[key] = &side;

  std::vector<CellComparison> comparisons;
  std::map<CellKey, bool> in_base;
  for (const auto& [key, side] : base) {
    CellComparison c;
    c.key = key;
    c.base = side;
    in_base[key] = true;
    if (auto match = current_by_key.find(key); match != current_by_key.end()) {
      c.current = *match->second;
    }
    comparisons.push_back(std::move(c));
  }
  for (const auto& [key, side] : current) {
    if (in_base.count(key)) continue;
    CellComparison c;
    c.key = key;
    c.current = side;
    comparisons.push_back(std::move(c));
  }

  for (CellComparison& c : comparisons) {
    if (!c.current) {
      c.verdict = Verdict::only_base;
      c.label = "only in base";
    } else if (!c.base) {
      c.verdict = Verdict::only_current;
      c.label = "only in new";
    } else if (c.base->status == status::failed || c.current->status == status::failed ||
               !c.base->median_ms || !c.current->median_ms) {
      decide_by_status(c);
    } else {
      decide_timed(c, settings);
    }
  }

  // Groups (workload, distribution) in the order they first appear; sizes ascending within one.
  std::map<std::pair<std::string, std::string>, std::size_t> group_order;
  for (const CellComparison& c : comparisons) {
    group_order.emplace(std::pair(c.key.workload, c.key.distribution), group_order.size());
  }
  std::stable_sort(comparisons.begin(), comparisons.end(), [&](const auto& x, const auto& y) {
    std::size_t gx = group_order.at({x.key.workload, x.key.distribution});
    std::size_t gy = group_order.at({y.key.workload, y.key.distribution});
    return gx != gy ? gx < gy : x.key.n < y.key.n;
  });
  return comparisons;
}

}  // namespace plugbench
