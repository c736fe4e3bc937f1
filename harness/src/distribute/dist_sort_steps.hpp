// dist_sort_steps.hpp: dist_sort's passes on one rank, a sample sort (dist_sort_steps.cpp).
#pragma once

#include "distribute/exchange_steps.hpp"

#include <memory>

namespace plugbench {

std::unique_ptr<ExchangeSteps> make_dist_sort_steps(const ProblemData& part,
                                                    const PluginSession& session,
                                                    const KernelRecord& kernel,
                                                    const StagingChoice& staging,
                                                    RankExchange& exchange);

}  // namespace plugbench
