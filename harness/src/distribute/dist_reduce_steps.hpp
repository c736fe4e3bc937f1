// dist_reduce_steps.hpp: dist_reduce's passes on one rank (dist_reduce_steps.cpp).
#pragma once

#include "distribute/exchange_steps.hpp"

#include <memory>

namespace plugbench {

std::unique_ptr<ExchangeSteps> make_dist_reduce_steps(const ProblemData& part,
                                                      const PluginSession& session,
                                                      const KernelRecord& kernel,
                                                      const StagingChoice& staging,
                                                      RankExchange& exchange);

}  // namespace plugbench
