// paired_ratios.hpp: ratios taken round by round (interleaved rounds, docs/measurement.md) and
// summarised as a median with a distribution-free confidence interval from the order statistics:
// no assumption on the shape of the per-round ratios (a shared machine's are skewed and have
// outliers), exact coverage for independent rounds, no resampling and so the same interval from
// the same file every time.
#pragma once

#include "measure/cell_result.hpp"

#include <optional>
#include <vector>

namespace plugbench {

// The confidence the intervals aim at.
inline constexpr double kPairedConfidence = 0.95;

// The median of `ratios` (NaNs and infinities left out) and the narrowest interval of order
// statistics [x(k), x(n+1-k)] whose coverage of the true median is at least kPairedConfidence
// (2 P(Binomial(n, 1/2) < k) <= 5 %). With fewer than 6 ratios no such interval exists: the
// interval is then the whole range, its confidence (1 - 2^(1-n)) recorded as it is. nullopt for
// no ratio.
std::optional<PairedFigure> median_with_interval(std::vector<double> ratios);

// This cell's samples matched with another's by round: `numerator(i, j)` over each round that
// both sampled, where i indexes `cell`'s samples and j `other`'s. Empty where either lacks rounds.
struct RoundPair {
  std::size_t cell_sample;
  std::size_t other_sample;
};
std::vector<RoundPair> pairs_by_round(const CellResult& cell, const CellResult& other);

}  // namespace plugbench
