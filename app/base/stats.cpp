// RollingSeries: a doubled ring buffer so that the window is always contiguous, and order
// statistics computed on a sorted copy (a window is a few hundred floats; sorting is cheaper than
// keeping an order-statistics structure up to date on every push).
#include "base/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace gpulab {

RollingSeries::RollingSeries(std::string name, std::string unit, size_t capacity)
    : name_(std::move(name)),
      unit_(std::move(unit)),
      capacity_(std::max<size_t>(capacity, 1)),
      ring_(2 * capacity_, 0.0f) {}

void RollingSeries::push(double value) {
  const float v = static_cast<float>(value);
  if (size_ < capacity_) {
    const size_t i = (head_ + size_) % capacity_;
    ring_[i] = v;
    ring_[i + capacity_] = v;
    ++size_;
  } else {
    // Full: the oldest slot becomes the newest, and the window starts one further on.
    ring_[head_] = v;
    ring_[head_ + capacity_] = v;
    head_ = (head_ + 1) % capacity_;
  }
  ++total_;
}

void RollingSeries::clear() {
  head_ = 0;
  size_ = 0;
  total_ = 0;
}

void RollingSeries::set_capacity(size_t capacity) {
  capacity = std::max<size_t>(capacity, 1);
  if (capacity == capacity_) return;
  const auto window = values();
  const size_t keep = std::min(size_, capacity);
  std::vector<float> ring(2 * capacity, 0.0f);
  std::copy(window.end() - static_cast<std::ptrdiff_t>(keep), window.end(), ring.begin());
  std::copy(window.end() - static_cast<std::ptrdiff_t>(keep), window.end(),
            ring.begin() + static_cast<std::ptrdiff_t>(capacity));
  ring_ = std::move(ring);
  capacity_ = capacity;
  head_ = 0;
  size_ = keep;
}

std::span<const float> RollingSeries::values() const { return {ring_.data() + head_, size_}; }

double RollingSeries::latest() const {
  if (size_ == 0) return 0.0;
  return ring_[head_ + size_ - 1];
}

double RollingSeries::mean() const {
  if (size_ == 0) return 0.0;
  double sum = 0.0;
  for (float v : values()) sum += v;
  return sum / static_cast<double>(size_);
}

double RollingSeries::min() const {
  if (size_ == 0) return 0.0;
  const auto w = values();
  return *std::min_element(w.begin(), w.end());
}

double RollingSeries::max() const {
  if (size_ == 0) return 0.0;
  const auto w = values();
  return *std::max_element(w.begin(), w.end());
}

std::vector<float> RollingSeries::sorted_copy() const {
  const auto w = values();
  std::vector<float> sorted(w.begin(), w.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

double RollingSeries::percentile(double p) const { return percentile_of_sorted(sorted_copy(), p); }

SeriesSummary RollingSeries::summary() const {
  SeriesSummary s;
  s.count = size_;
  if (size_ == 0) return s;
  const auto sorted = sorted_copy();
  s.latest = latest();
  s.mean = mean();
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = percentile_of_sorted(sorted, 50.0);
  s.p95 = percentile_of_sorted(sorted, 95.0);
  return s;
}

double percentile_of_sorted(std::span<const float> sorted, double p) {
  if (sorted.empty()) return 0.0;
  if (!(p > 0.0)) p = 0.0;  // also maps NaN to 0
  if (p > 100.0) p = 100.0;
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double t = rank - static_cast<double>(lo);
  return static_cast<double>(sorted[lo]) * (1.0 - t) + static_cast<double>(sorted[hi]) * t;
}

// ---------------------------------------------------------------------------------------------
std::string format_bytes(double bytes) {
  char buf[64];
  if (!std::isfinite(bytes)) return "-";
  const double a = std::fabs(bytes);
  if (a < 1024.0) {
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    return buf;
  }
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = bytes / 1024.0;
  int u = 0;
  while (std::fabs(v) >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[u]);
  return buf;
}

std::string format_si(double value, const std::string& unit) {
  char buf[96];
  if (!std::isfinite(value)) return "- " + unit;
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  double v = value;
  int p = 0;
  // Round first so that 999.96 becomes "1.00 k" rather than "1000 ".
  auto rounds_to_1000 = [](double x) {
    const double a = std::fabs(x);
    const double r = a < 10.0    ? std::round(a * 100.0) / 100.0
                     : a < 100.0 ? std::round(a * 10.0) / 10.0
                                 : std::round(a);
    return r >= 1000.0;
  };
  while (rounds_to_1000(v) && p < 6) {
    v /= 1000.0;
    ++p;
  }
  const double a = std::fabs(v);
  const char* fmt = a < 10.0 ? "%.2f %s%s%s" : a < 100.0 ? "%.1f %s%s%s" : "%.0f %s%s%s";
  // "GB/s", but "G cell updates/s": a prefix glued to a phrase reads as part of its first word.
  const char* gap = p > 0 && unit.find(' ') != std::string::npos ? " " : "";
  std::snprintf(buf, sizeof buf, fmt, v, kPrefixes[p], gap, unit.c_str());
  return buf;
}

std::string format_count(double count, const std::string& unit) {
  if (std::isfinite(count) && std::fabs(count) < 999.5) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.0f %s", count, unit.c_str());
    return buf;
  }
  return format_si(count, "") + " " + unit;  // "1.05 M pixels": the prefix apart from a word
}

std::string format_ms(double ms) {
  char buf[64];
  if (!std::isfinite(ms)) return "-";
  const double a = std::fabs(ms);
  const char* fmt = a < 1.0 ? "%.4f" : a < 10.0 ? "%.3f" : a < 100.0 ? "%.2f" : "%.1f";
  std::snprintf(buf, sizeof buf, fmt, ms);
  return buf;
}

std::string format_time(double ms) {
  if (!std::isfinite(ms) || ms <= 0) return "-";
  char buf[64];
  if (ms < 1.0)
    std::snprintf(buf, sizeof buf, "%.3g \xC2\xB5s", ms * 1000.0);
  else if (ms >= 1000.0)
    std::snprintf(buf, sizeof buf, "%.3g s", ms / 1000.0);
  else
    std::snprintf(buf, sizeof buf, "%.3g ms", ms);
  return buf;
}

std::string per_words(const std::string& label) {
  const size_t open = label.find('('), close = label.rfind(')');
  return open != std::string::npos && close != std::string::npos && close > open + 1
             ? label.substr(open + 1, close - open - 1)
             : "per step";
}

std::string format_time_per(double ms, const std::string& label) {
  const std::string t = format_time(ms);
  return t == "-" ? t : t + " " + per_words(label);
}

}  // namespace gpulab
