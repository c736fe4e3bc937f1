// family_control.hpp: false alarms over the whole family of compared cells. A comparison of 100
// cells at 5 % each calls five of them different by chance alone; Holm's step-down adjustment
// keeps the chance of any false call in the family at alpha, and is never less powerful than
// Bonferroni's.
#pragma once

#include <vector>

namespace plugbench {

// Holm-adjusted p-values, in the order given: the i-th smallest p times (m - i + 1), made
// non-decreasing, at most 1. A cell whose adjusted p is below alpha differs at family level alpha.
std::vector<double> holm_adjusted(const std::vector<double>& p_values);

}  // namespace plugbench
