#pragma once
// Rolling statistics over the last N samples of a timing (or any other) series. The UI reports
// medians and percentiles, not a single frame: one frame's number is noise, a window's median is a
// measurement. No CUDA, no ImGui: used by the GPU profiler, the CPU frame timers and the bench.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpulab {

// Summary of a window, computed with one sort. All zero when the window is empty (count == 0):
// callers show "-" rather than a number in that case.
struct SeriesSummary {
  size_t count = 0;
  double latest = 0.0;
  double mean = 0.0;
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  double p95 = 0.0;
};

// A named window of the last `capacity` values. push() is O(1) and allocation-free; values() is
// always one contiguous, oldest-first array (ready for ImGui::PlotLines without an offset), which
// is why the ring is stored twice over: each value is written at i and i + capacity.
class RollingSeries {
 public:
  static constexpr size_t kDefaultCapacity = 240;  // 4 s at 60 fps

  explicit RollingSeries(std::string name = {}, std::string unit = "ms",
                         size_t capacity = kDefaultCapacity);  // capacity 0 is taken as 1

  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  size_t capacity() const { return capacity_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint64_t total_pushed() const { return total_; }  // since construction or clear()

  void push(double value);
  void clear();
  // Keeps the newest min(size(), capacity) values.
  void set_capacity(size_t capacity);

  // The window, oldest first, contiguous. Valid until the next push/clear/set_capacity.
  std::span<const float> values() const;
  const float* plot_data() const { return values().data(); }
  int plot_count() const { return static_cast<int>(size_); }

  // Statistics over the window; 0 when empty. Percentiles interpolate linearly between the closest
  // ranks (numpy's default), so p95 of one sample is that sample and the median of two is their
  // mean.
  double latest() const;
  double mean() const;
  double min() const;
  double max() const;
  double median() const { return percentile(50.0); }
  double p95() const { return percentile(95.0); }
  double percentile(double p) const;  // p in [0, 100], clamped
  SeriesSummary summary() const;      // all of the above with one sort

 private:
  std::vector<float> sorted_copy() const;

  std::string name_;
  std::string unit_;
  size_t capacity_;
  std::vector<float> ring_;  // 2 * capacity_ floats
  size_t head_ = 0;          // index of the oldest value in [0, capacity_)
  size_t size_ = 0;
  uint64_t total_ = 0;
};

// Percentile of an ascending array, linear interpolation between closest ranks; 0 when empty.
double percentile_of_sorted(std::span<const float> sorted, double p);

// Numbers for people, shared by the panels and the bench output.
// 1536 -> "1.50 KiB", 3.5e9 -> "3.26 GiB" (binary prefixes; "0 B" for 0, bytes below 1 KiB exact).
std::string format_bytes(double bytes);
// 3.2e10, "B/s" -> "32.0 GB/s"; 3.2e10, "cell updates/s" -> "32.0 G cell updates/s" (decimal
// prefixes k M G T P E, 3 significant digits).
std::string format_si(double value, const std::string& unit);
// A count: whole numbers below 1000 as such ("84 cells", never "84.0 cells"), larger ones as
// with a decimal prefix and 3 significant digits ("1.05 M pixels").
std::string format_count(double count, const std::string& unit);
// Milliseconds with a precision that suits the size: "0.0123", "1.234", "12.34", "123.4"; "-" for
// a value that is not finite.
std::string format_ms(double ms);
// A time a step in the words the HUD uses, for the demos' captions, the bench's table and the
// ladder: 0.0182, "step (per generation)" -> "18.2 µs per generation": format_time's figure and
// per_words' words.
std::string format_time_per(double ms, const std::string& throughput_label);
// The figure alone: 0.0182 -> "18.2 µs", 2.09 -> "2.09 ms", 1250 -> "1.25 s" (3 significant figures
// in µs, ms or s); "-" for a value that is not positive and finite.
std::string format_time(double ms);
// What a step is per, from a throughput label's parenthesis: "step (per generation)" ->
// "per generation"; a label without one (or "") -> "per step".
std::string per_words(const std::string& throughput_label);

// Measures the wall time of a scope on the host and pushes it (ms) into a series when it ends.
class ScopedCpuTimer {
 public:
  explicit ScopedCpuTimer(RollingSeries& series)
      : series_(&series), start_(std::chrono::steady_clock::now()) {}
  ScopedCpuTimer(const ScopedCpuTimer&) = delete;
  ScopedCpuTimer& operator=(const ScopedCpuTimer&) = delete;
  ~ScopedCpuTimer() {
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    series_->push(std::chrono::duration<double, std::milli>(elapsed).count());
  }

 private:
  RollingSeries* series_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gpulab
