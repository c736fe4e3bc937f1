// problem_scaling.hpp: how a distributed workload's problem is sized across the ranks, with the
// one table of its names that --scaling, the results file and the tables use.
#pragma once

#include "base/enum_names.hpp"

namespace plugbench {

// weak: n per rank (the whole problem is ranks x n); strong: n in total, split across the ranks.
enum class Scaling { weak, strong };

inline constexpr EnumName<Scaling> kScalingNames[] = {{Scaling::weak, "weak"},
                                                      {Scaling::strong, "strong"}};

inline const char* to_string(Scaling scaling) {
  return name_in(kScalingNames, scaling);
}

}  // namespace plugbench
