// derived_figures.hpp: what a problem's measured cells give once all of them have run: GB/s and
// % of the peak of the cell's memory space and access pattern, work rate, and speedups against
// the baseline's cell.
#pragma once

#include "measure/calibration.hpp"
#include "measure/cell_result.hpp"

#include <map>
#include <string>
#include <vector>

namespace plugbench {

// --baseline names a plugin ("cpu_serial": its first verified cell of each problem) or one variant
// of a plugin ("cuda_optimized/onesweep": tunings and variants of one plugin measured against one
// of them in the same rounds).
std::string baseline_plugin(const std::string& baseline);  // the part before '/'
bool is_baseline_cell(const std::string& baseline, const CellResult& cell);

// `cells`: every cell of one problem. `peaks_by_plugin`: the peaks each plugin's cells are held to.
// `caches_flushed` (--cache cold): every sample read its data from memory, so a rate beyond
// kSuspectPeakFactor times the peak is impossible and the cell is flagged suspect. The peak is the
// one measured beside the cell where its rounds ran a reference loop (each sample over its
// round's pass; the low end of that ratio's interval must pass the factor), else the
// calibration's. With warm caches a problem that fits in them may rightly beat the memory's peak
// several times, and is not judged.
void derive_figures(std::vector<CellResult>& cells, const std::string& baseline,
                    const std::map<std::string, std::vector<PeakBandwidth>>& peaks_by_plugin,
                    bool caches_flushed);

}  // namespace plugbench
