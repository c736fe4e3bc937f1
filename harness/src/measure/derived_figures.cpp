// derived_figures.cpp: GB/s, % of peak, work rate and speedups of a problem's cells.
#include "measure/derived_figures.hpp"

#include "measure/paired_ratios.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace plugbench {
namespace {

std::string suspect_reason(double gbps, const PeakBandwidth& peak, MemorySpace space) {
  char text[320];
  std::snprintf(text, sizeof text,
                "%.4g GB/s is %.1fx the measured peak of %.4g GB/s (%s) of %s memory: with the "
                "caches flushed before every sample no kernel moves its traffic that fast; it may "
                "skip work on the timed calls",
                gbps, gbps / peak.gbps, peak.gbps, peak.pattern.c_str(), to_string(space));
  return text;
}

// Against the reference loop's passes in the same rounds: the peak measured beside each sample,
// whatever the machine's load did between the calibration and the cell.
std::string suspect_against_rounds(double gbps, const PairedFigure& paired,
                                   const SampleRounds& rounds, std::optional<MemorySpace> space) {
  // A round without a pass holds NaN: the median is of the passes there were.
  std::vector<double> passes;
  for (double ms : rounds.reference_ms) {
    if (std::isfinite(ms) && ms > 0) passes.push_back(ms);
  }
  std::sort(passes.begin(), passes.end());
  char rate[64] = "";
  if (!passes.empty()) {
    std::snprintf(rate, sizeof rate, ", %.4g GB/s at the median pass",
                  rounds.reference_bytes_moved / passes[passes.size() / 2] / 1e6);
  }
  char text[512];
  std::snprintf(text, sizeof text,
                "%.4g GB/s is %.3gx (at least %.3gx, %.0f%% interval) the measured peak of %s "
                "memory in the same rounds (its %s loop %s%s): with the caches flushed before "
                "every sample no kernel moves its traffic that fast; it may skip work on the "
                "timed calls",
                gbps, paired.median / 100, paired.low / 100, 100 * paired.confidence,
                to_string(space), rounds.reference_pattern.c_str(), rounds.reference_loop.c_str(),
                rate);
  return text;
}

}  // namespace

std::string baseline_plugin(const std::string& baseline) {
  return baseline.substr(0, baseline.find('/'));
}

bool is_baseline_cell(const std::string& baseline, const CellResult& cell) {
  if (baseline.find('/') == std::string::npos) return cell.plugin == baseline;
  return baseline == cell.plugin + "/" + cell.variant;
}

void derive_figures(std::vector<CellResult>& cells, const std::string& baseline,
                    const std::map<std::string, std::vector<PeakBandwidth>>& peaks_by_plugin,
                    bool caches_flushed) {
  const CellResult* base = nullptr;
  for (const CellResult& cell : cells) {
    if (is_baseline_cell(baseline, cell) && cell.status == CellStatus::ok && cell.kernel) {
      base = &cell;
      break;
    }
  }
  for (CellResult& cell : cells) {
    if (!cell.kernel || !cell.traffic || cell.kernel->median_ms <= 0) continue;
    const PeakBandwidth* calibrated_peak = nullptr;
    double seconds = cell.kernel->median_ms / 1e3;
    const Traffic& traffic = *cell.traffic;
    if (traffic.work_unit.empty()) {
      cell.gbps = traffic.bytes() / seconds / 1e9;
      if (auto peaks = peaks_by_plugin.find(cell.plugin);
          cell.memory_space && peaks != peaks_by_plugin.end()) {
        if (const PeakBandwidth* peak =
                peak_for(peaks->second, *cell.memory_space, traffic.pattern)) {
          cell.percent_of_peak = 100 * *cell.gbps / peak->gbps;
          cell.peak_pattern = peak->pattern;
          calibrated_peak = peak;
        }
      }
    }
    cell.work_rate = (traffic.work > 0 ? traffic.work : double(cell.shape.n)) / seconds;
    if (cell.rounds && !cell.rounds->reference_ms.empty() &&
        cell.rounds->reference_bytes_moved > 0 &&
        cell.rounds->reference_ms.size() == cell.kernel->samples_ms.size()) {
      // This round's rate over this round's pass of the reference loop.
      std::vector<double> ratios;
      for (std::size_t i = 0; i < cell.kernel->samples_ms.size(); ++i) {
        const double rate = traffic.bytes() / cell.kernel->samples_ms[i];
        const double reference_rate =
            cell.rounds->reference_bytes_moved / cell.rounds->reference_ms[i];
        ratios.push_back(100 * rate / reference_rate);
      }
      if (traffic.work_unit.empty()) cell.paired_percent_of_peak = median_with_interval(ratios);
    }
    // Suspect: beyond kSuspectPeakFactor times the peak with every sample read from memory. Where
    // the rounds measured the peak beside each sample, against that (its interval's low end: a
    // loaded machine's noise does not flag a correct kernel); else against the calibration's.
    if (caches_flushed && cell.gbps) {
      if (cell.paired_percent_of_peak) {
        if (cell.paired_percent_of_peak->low > 100 * kSuspectPeakFactor) {
          cell.suspect = suspect_against_rounds(*cell.gbps, *cell.paired_percent_of_peak,
                                                *cell.rounds, cell.memory_space);
        }
      } else if (calibrated_peak && *cell.gbps > kSuspectPeakFactor * calibrated_peak->gbps) {
        cell.suspect = suspect_reason(*cell.gbps, *calibrated_peak, *cell.memory_space);
      }
    }
    // A wrong answer's time was measured, but a speedup would rank it.
    if (base && cell.status == CellStatus::ok) {
      std::vector<double> ratios;
      for (const RoundPair& pair : pairs_by_round(cell, *base)) {
        ratios.push_back(base->kernel->samples_ms[pair.other_sample] /
                         cell.kernel->samples_ms[pair.cell_sample]);
      }
      cell.paired_speedup = median_with_interval(ratios);
      cell.baseline = base->plugin + "/" + base->variant;
      cell.speedup = base->kernel->median_ms / cell.kernel->median_ms;
      if (base->end_to_end && cell.end_to_end && cell.end_to_end->median_ms > 0) {
        cell.speedup_end_to_end = base->end_to_end->median_ms / cell.end_to_end->median_ms;
      }
    }
  }
}

}  // namespace plugbench
