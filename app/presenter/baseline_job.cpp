// The HUD's CPU baseline in the background: see baseline_job.h.
#include "presenter/baseline_job.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

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

BaselineJob::BaselineJob(Probe probe, const BenchSuite& peaks) : probe_(std::move(probe)), peaks_(peaks) {
  worker_ = std::thread([this] { work(); });
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
  // At the lowest priority (the CPU engine's threads inherit it): the frames, and the launches inside
  // a timed GPU step, go first; the baseline gets the cores the app leaves idle.
  lowest_priority(::syscall(SYS_gettid));
  BenchRow row;
  BenchMeasure how;
  how.repeats = 3;
  how.cancelled = [this] { return cancel_.load(); };
  BenchMeasured m;
  try {
    m = bench_measure_probe(
        row, [this] { return std::move(probe_); }, how, peaks_);
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (m.outcome == BenchOutcome::Measured)
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
