#include "presenter/meters.h"

#include <algorithm>
#include <cmath>

namespace gpulab::presenter {

void MeterHistory::add(const std::vector<cuda::MeterSample>& samples) {
  for (const cuda::MeterSample& s : samples) {
    if (!std::isfinite(s.t_s) || !std::isfinite(s.dram_pct) || !std::isfinite(s.sm_pct)) continue;
    if (!samples_.empty()) {
      const double newest = samples_.back().t_s;
      if (s.t_s < newest - window_s_)
        samples_.clear();  // another clock (a restarted session)
      else if (s.t_s <= newest)
        continue;
    }
    samples_.push_back(s);
  }
  if (samples_.empty()) return;
  const double oldest_kept = samples_.back().t_s - window_s_;
  while (!samples_.empty() && samples_.front().t_s < oldest_kept) samples_.pop_front();
}

std::vector<float> MeterHistory::plot(Meter m, size_t bins) const {
  std::vector<float> out(bins, 0.0f);
  if (bins == 0 || samples_.empty()) return out;
  const double end = samples_.back().t_s, start = end - window_s_;
  std::vector<double> sum(bins, 0.0);
  std::vector<int> count(bins, 0);
  for (const cuda::MeterSample& s : samples_) {
    const double f = (s.t_s - start) / window_s_;
    const size_t b = std::min(bins - 1, size_t(std::max(0.0, f * double(bins))));
    sum[b] += value(s, m);
    ++count[b];
  }
  float last = 0;
  for (size_t b = 0; b < bins; ++b) {
    if (count[b] > 0) last = float(sum[b] / count[b]);
    out[b] = last;
  }
  return out;
}

double MeterHistory::mean(Meter m, double span_s) const {
  if (samples_.empty()) return 0;
  const double from = samples_.back().t_s - span_s;
  double sum = 0;
  int n = 0;
  for (auto it = samples_.rbegin(); it != samples_.rend() && it->t_s >= from; ++it) {
    sum += value(*it, m);
    ++n;
  }
  return n > 0 ? sum / n : 0;
}

double MeterHistory::max(Meter m) const {
  double v = 0;
  for (const cuda::MeterSample& s : samples_) v = std::max(v, value(s, m));
  return v;
}

double MeterHistory::span_s() const {
  return samples_.size() < 2 ? 0 : samples_.back().t_s - samples_.front().t_s;
}

double MeterHistory::rate_hz() const {
  const double span = span_s();
  return span > 0 ? double(samples_.size() - 1) / span : 0;
}

}  // namespace gpulab::presenter
