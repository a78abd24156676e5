// The HUD's CPU baseline in the background: see baseline_job.h.
#include "presenter/baseline_job.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/bench_stepper.h"

namespace gpulab::presenter {

Picks baseline_picks(const StageTables& tables, Picks picks) {
  for (size_t s = 0; s < picks.size() && s < tables.stages.size(); ++s) {
    const std::vector<VariantChoice>& vs = tables.stages[s].variants;
    for (size_t i = 0; i < vs.size(); ++i)
      if (!vs[i].needs_cuda) {
        picks[s] = pick_of(tables, s, static_cast<int>(i));
        settle(tables, picks, s);
        break;
      }
  }
  return picks;
}

namespace {
std::set<long> thread_ids() {
  std::set<long> ids;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    char* end = nullptr;
    const std::string name = e.path().filename().string();
    const long id = std::strtol(name.c_str(), &end, 10);
    if (end && *end == '\0') ids.insert(id);
  }
  return ids;
}
void lowest_priority(long thread_id) { (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(thread_id), 19); }
}  // namespace

Probe make_probe_at_low_priority(const std::function<Probe()>& make) {
  const std::set<long> before = thread_ids();
  Probe p = make();
  for (long id : thread_ids())
    if (!before.count(id)) lowest_priority(id);
  return p;
}

BaselineClocks BaselineClocks::system() {
  BaselineClocks c;
  c.wall_ms = [] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  // The second field of schedstat: nanoseconds spent runnable, waiting on a run queue.
  c.waited_ms = [] {
    std::ifstream in("/proc/thread-self/schedstat");
    unsigned long long ran = 0, waited = 0;
    if (!(in >> ran >> waited)) return std::nan("");
    return static_cast<double>(waited) / 1e6;
  };
  return c;
}

BaselineJob::BaselineJob(Probe probe, const BenchSuite& peaks, bool hold_live, BaselineClocks clocks)
    : probe_(std::move(probe)), peaks_(peaks), hold_live_(hold_live), clocks_(std::move(clocks)) {
  if (hold_live_) hold_.store(1);
  worker_ = std::thread([this] { work(); });
}

bool BaselineJob::wants_hold() const {
  const int h = hold_.load();
  if (h == 1) return true;
  if (h != 2) return false;
  // The clock is read on the main thread here: the cap is the only use, and the clocks are pure.
  return clocks_.wall_ms() - granted_at_ms_.load() < kMaxHoldSeconds * 1000.0;
}

void BaselineJob::hold_granted() {
  int asked = 1;
  if (hold_.compare_exchange_strong(asked, 2)) granted_at_ms_.store(clocks_.wall_ms());
}

bool BaselineJob::wait_for_hold() {
  if (!hold_live_) return true;
  const double from = clocks_.wall_ms();
  while (hold_.load() == 1) {
    if (cancel_.load() || clocks_.wall_ms() - from > kGrantTimeoutMs) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

BaselineJob::~BaselineJob() {
  cancel_.store(true);
  if (worker_.joinable()) worker_.join();
}

std::optional<double> BaselineJob::ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ms_;
}

std::string BaselineJob::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void BaselineJob::work() {
  // Beside a live GPU demo, at the lowest priority (the CPU engine's threads inherit it): the frames,
  // and the launches inside a timed GPU step, go first; the baseline gets the cores the app leaves
  // idle. With the live step held, at the normal priority: only the drawing shares the cores.
  if (!hold_live_) lowest_priority(::syscall(SYS_gettid));
  const bool held = wait_for_hold();
  BenchRow row;
  BenchMeasure how;
  how.repeats = 3;
  how.cancelled = [this] { return cancel_.load(); };
  BenchMeasured m;
  // Each run's share of its time spent waiting for a core: the figure is the median of the repeats,
  // so a run that waited now and then (the drawing took the cores a moment) does not make it wrong,
  // a median run that waited does.
  std::vector<double> shares;
  const double wall0 = clocks_.wall_ms();
  auto make = [this, &shares] {
    Probe p = std::move(probe_);
    if (p.run && clocks_.waited_ms)
      p.run = [this, &shares, run = std::move(p.run)](int steps) {
        const double w0 = clocks_.wall_ms(), q0 = clocks_.waited_ms();
        run(steps);
        const double w = clocks_.wall_ms() - w0, q = clocks_.waited_ms() - q0;
        if (w > 0 && std::isfinite(q)) shares.push_back(q / w);
      };
    return p;
  };
  try {
    m = bench_measure_probe(row, make, how, peaks_);
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  const double wall = clocks_.wall_ms() - wall0;
  double share = 0;
  if (!shares.empty()) {
    std::nth_element(shares.begin(), shares.begin() + static_cast<std::ptrdiff_t>(shares.size() / 2),
                     shares.end());
    share = shares[shares.size() / 2];
  }
  // A hold that ran out before the end counts as none: the last repeats shared the cores.
  const bool hold_lasted = !hold_live_ || (held && wall < kMaxHoldSeconds * 1000.0);
  hold_.store(3);
  wait_share_.store(share);
  approximate_.store(!hold_lasted || share > kMaxWaitShare);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (m.outcome == BenchOutcome::Measured && share > kMaxApproximateShare)
      error_ = "cores busy, F5 measures it";  // the HUD's caption: short
    else if (m.outcome == BenchOutcome::Measured)
      ms_ = row.ms_median;
    else
      error_ = m.outcome == BenchOutcome::Cancelled ? "cancelled"
               : row.error.empty()                  ? "not measured"
                                                    : row.error;
  }
  probe_ = Probe{};  // its engines and copy go here, on the thread that used them
  done_.store(true);
}

}  // namespace gpulab::presenter
