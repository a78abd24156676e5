#pragma once
// The live meters' history (cuda/pm_sampler.h samples them): the last seconds of DRAM throughput and
// SM activity, as values for a small plot (equal time bins ending at the newest sample), the recent
// mean and the rate the samples came at. Pure arithmetic, CUDA-free, tested on the CPU.
#include <cstddef>
#include <deque>
#include <vector>

#include "cuda/pm_sampler.h"

namespace gpulab::presenter {

enum class Meter { Dram, Sm };

class MeterHistory {
 public:
  explicit MeterHistory(double window_s = 10) : window_s_(window_s) {}
  // Appends samples in time order; one not after the newest kept is dropped (a restarted clock
  // clears the history first: a sample more than a window before the newest starts it afresh).
  void add(const std::vector<cuda::MeterSample>& samples);
  void clear() { samples_.clear(); }
  size_t size() const { return samples_.size(); }
  bool empty() const { return samples_.empty(); }
  double window_s() const { return window_s_; }

  // `bins` values over the window ending at the newest sample: the mean of the samples in each bin;
  // a bin without samples repeats the previous bin's value (0 before the first sample).
  std::vector<float> plot(Meter m, size_t bins) const;
  // The mean of the samples in the last `span_s` seconds (0 when none).
  double mean(Meter m, double span_s) const;
  // The highest value in the window.
  double max(Meter m) const;
  // Samples a second over the kept span (0 with fewer than two samples).
  double rate_hz() const;
  // The time between the oldest and the newest kept sample, seconds.
  double span_s() const;

 private:
  static double value(const cuda::MeterSample& s, Meter m) {
    return m == Meter::Dram ? s.dram_pct : s.sm_pct;
  }
  double window_s_;
  std::deque<cuda::MeterSample> samples_;
};

}  // namespace gpulab::presenter
