// The shell's Session: see session.h.
#include "shell/session.h"

#include <chrono>
#include <cstdio>

#include "common/cuda_probe.h"
#include "common/device_health.h"
#include "common/text.h"
#include "platform/platform.h"
#include "presenter/elements.h"

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cuda/device_info.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#endif

namespace gpulab {

struct ShellSession::Gpu {
#if defined(GPULAB_HAVE_CUDA)
  cuda::Stream stream;
  cuda::DeviceInfo info;
#endif
};

ShellSession::ShellSession(const Options& options, std::vector<std::unique_ptr<Demo>> demos,
                           std::vector<Params> params)
    : options_(options), demos_(std::move(demos)) {
  if (demos_.empty()) demos_ = make_demos();
  // What each demo runs: the command line's parameters (its demo's); choose_for_run resolves the picks.
  setups_.reserve(demos_.size());
  for (size_t i = 0; i < demos_.size(); ++i) {
    setups_.emplace_back();
    setups_[i].demo = std::string(demos_[i]->name());
    setups_[i].params =
        i < params.size() && params[i] ? std::move(params[i]) : Params(demos_[i]->make_params());
    demos_[i]->bind(setups_[i]);
  }
  gpu_ = std::make_unique<Gpu>();
}

ShellSession::~ShellSession() {
  detach();
  demos_.clear();
  gpu_.reset();
}

const cuda::DeviceInfo* ShellSession::device() const {
#if defined(GPULAB_HAVE_CUDA)
  if (ctx_.cuda && gpu_) return &gpu_->info;
#endif
  return nullptr;
}

double ShellSession::now() const {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

int ShellSession::framebuffer_width() const { return platform_ ? platform_->framebuffer_width() : 0; }
int ShellSession::framebuffer_height() const { return platform_ ? platform_->framebuffer_height() : 0; }

void ShellSession::init_backend() {
  const CudaStatus cs = cuda_status();
  ctx_.cuda = cs.available && !options_.cpu;
  ctx_.cuda_device = cs.device;
  ctx_.cuda_reason = options_.cpu ? "--cpu was given" : cs.reason;
#if defined(GPULAB_HAVE_CUDA)
  if (ctx_.cuda) {
    try {
      cudaSetDevice(cs.device);
      gpu_->stream = cuda::Stream::create_non_blocking();
      gpu_->info = cuda::query_device(cs.device);
      ctx_.stream = gpu_->stream.get();
      ctx_.peak_bandwidth_gbps = gpu_->info.peak_bandwidth_gbs();
      ctx_.peak_fp32_gflops = gpu_->info.peak_fp32_gflops();
    } catch (const std::exception& e) {
      ctx_.cuda = false;
      ctx_.cuda_reason = std::string("CUDA device unusable: ") + e.what();
    }
  }
#endif
  ctx_.timings = &timings_;
  ctx_.notify = [this](std::string s) { notify(std::move(s)); };
}

void ShellSession::init_display(platform::Platform* platform) {
  platform_ = platform;
  ctx_.platform = platform;
  // Interop needs the GL context on the CUDA device in use.
  ctx_.interop = false;
  if (!ctx_.cuda) {
    ctx_.interop_reason = "no CUDA backend";
  } else if (platform->info().software) {
    ctx_.interop_reason = "the GL context is a software renderer (" + platform->info().gl_renderer + ")";
  } else {
#if defined(GPULAB_HAVE_CUDA)
    int dev = -1;
    if (!cuda::gl_context_on_cuda_device(&dev)) {
      ctx_.interop_reason =
          "the GL context is not on a CUDA device (remote session, WSL2, or a display on another GPU)";
    } else if (dev != ctx_.cuda_device) {
      ctx_.interop_reason = "the GL context is on CUDA device " + std::to_string(dev) +
                            ", compute on device " + std::to_string(ctx_.cuda_device);
    } else {
      ctx_.interop = true;
    }
#endif
  }
  if (ctx_.cuda && !ctx_.interop) notify("host-copy display path: " + ctx_.interop_reason);
}

void ShellSession::log(const std::string& line) { std::fprintf(stderr, "gpulab: %s\n", line.c_str()); }

void ShellSession::drop_notices_after(unsigned long long mark) {
  for (auto it = notices_.begin(); it != notices_.end();)
    it = it->serial > mark ? notices_.erase(it) : std::next(it);
}

void ShellSession::notify(std::string line) {
  log(line);
  const double t = now();
  // The same notice again while it is still shown: counted, not stacked.
  for (presenter::Notice& n : notices_)
    if (n.text == line && t - n.time < 8.0) {
      ++n.count;
      n.time = t;
      return;
    }
  notices_.push_back({std::move(line), t, 1, ++said_});
  while (notices_.size() > 8) notices_.pop_front();
}

void ShellSession::guarded(const char* phase, const std::function<void()>& fn) {
  // Errors stop at the demo boundary: shown in the UI, the app keeps running.
  try {
    fn();
  } catch (const std::exception& e) {
    had_error_ = true;
    // A fault that broke the CUDA context: said once, and the demo goes on on the CPU between frames.
    check_gpu();
    if (gpu_failed()) return;
    notify(std::string(demos_[index_]->name()) + " " + phase + ": " + e.what());
    playback_.playing = false;
  }
}

void ShellSession::check_gpu() {
  if (!ctx_.cuda || !gpu_failure_.empty()) return;
  gpu_failure_ = broken_cuda_context();
  if (!gpu_failure_.empty()) had_error_ = true;
}

void ShellSession::fall_back_to_cpu() {
  if (gpu_failure_.empty()) return;
  const std::string why = std::exchange(gpu_failure_, std::string());
  const Setup setup = setups_[index_];
  // Everything that holds CUDA state ends: the elements' runs (A/B's B half, the ladder, the
  // counters), the demo, the GPU timers, the stream. Their calls fail at once on the broken context.
  // The device is not reset: the driver gives a faulted GPU back only to a new process (see
  // device_health.h), and with a GL interop context cudaDeviceReset never returned on the H100.
  if (elements_)
    for (auto& e : *elements_) e->demo_replaced(*this);
  detach();
  timings_.forget();
#if defined(GPULAB_HAVE_CUDA)
  gpu_->stream = {};
#endif
  ctx_.cuda = false;
  ctx_.cuda_reason = "the GPU failed (" + why + ")";
  ctx_.stream = nullptr;
  ctx_.interop = false;
  ctx_.interop_reason = "no CUDA backend";
  ctx_.peak_bandwidth_gbps = ctx_.peak_fp32_gflops = 0;
  gpu_lost_ = why;
  const unsigned long long mark = said_;
  const std::string bad = start(setup);
  drop_notices_after(mark);  // the demo's own "not available" of it: the notice below says it all
  playback_.playing = true;
  notify("the GPU failed (" + why + "): " + std::string(demos_[index_]->title()) +
         (bad.empty() ? " goes on on the CPU" : " did not start on the CPU: " + bad) +
         "; start gpulab again to use the GPU");
}

std::string ShellSession::choose_for_run(const std::string& name) {
  index_ = demos_.size();
  std::string names;
  for (size_t i = 0; i < demos_.size(); ++i) {
    names += (names.empty() ? "" : ", ") + std::string(demos_[i]->name());
    if (demos_[i]->name() == name) index_ = i;
  }
  if (index_ == demos_.size()) {
    index_ = 0;
    return "no demo " + text::quote(name) + " (demos: " + names + ")";
  }
  // The picks, resolved once for the device in use (defaults included) before anything checks them:
  // the command line's for its demo, the defaults for the others.
  for (size_t i = 0; i < demos_.size(); ++i)
    setups_[i].picks = default_picks(demos_[i]->stage_tables(), ctx_.cuda);
  Demo& d = *demos_[index_];
  std::string bad =
      resolve_setup(d, options_, std::move(setups_[index_].params), ctx_.cuda, &setups_[index_]);
  if (bad.empty()) bad = d.configure(options_);
  if (bad.empty() && options_.steps >= 0 && !d.batch_requested())
    bad = "--steps goes with a batch output of the " + std::string(d.name()) + " demo (see --help)";
  return bad;
}

bool ShellSession::attach_current() {
  attach_error_.clear();
  try {
    Demo& d = *demos_[index_];
    d.attach(ctx_);
    attached_ = true;
    // A pick that cannot run here (a GPU variant without a CUDA device) becomes its stage's CPU one.
    Setup& s = setups_[index_];
    Picks runnable = s.picks;
    if (runnable_picks(d, runnable)) {
      // Said, never silent (every demo alike): "h2d-pinned is not available (no NVIDIA driver): using
      // host-pageable".
      // One line for every stage that changed (histeq's three: "hist-x, scan-y and apply-z are not ...").
      const StageTables& t = d.stage_tables();
      std::vector<std::string> asked, using_;
      std::string no;
      for (size_t st = 0; st < runnable.size() && st < s.picks.size(); ++st) {
        if (runnable[st].variant == s.picks[st].variant) continue;
        if (no.empty()) no = brief_cuda_reason(d.why_unavailable(st, s.picks[st].variant), cuda_status());
        asked.emplace_back(variant_of(t, s.picks[st]).id);
        using_.emplace_back(variant_of(t, runnable[st]).id);
      }
      auto list = [](const std::vector<std::string>& v) {
        std::string out;
        for (size_t i = 0; i < v.size(); ++i)
          out += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
        return out;
      };
      if (!asked.empty())
        notify(list(asked) + (asked.size() > 1 ? " are" : " is") + " not available (" + no + "): using " +
               list(using_));
      const Picks before = std::exchange(s.picks, runnable);
      std::string why;
      if (!d.picks_changed(before, &why)) notify(why);
    }
  } catch (const std::exception& e) {
    attached_ = false;
    attach_error_ = "cannot start " + std::string(demos_[index_]->title()) + ": " + e.what();
    notify(attach_error_);
    // Whatever it made before failing goes (a half-attached demo must not be drawn).
    try {
      demos_[index_]->detach();
    } catch (...) {
    }
  }
  return attached_;
}

void ShellSession::select(size_t index) {
  if (index >= demos_.size()) {
    notify("there is no demo " + std::to_string(index + 1) + " (" + std::to_string(demos_.size()) +
           " demos)");
    return;
  }
  if (index == index_ && attached_) return;
  replace(index, nullptr);
}

std::string ShellSession::configure_fresh(Demo& demo, const Setup& setup) {
  demo.bind(setup);
  // After a GPU fault, the CPU backend as --cpu makes it (until the GPU is tried again).
  return demo.configure(options_without_outputs(options_.cpu || !gpu_lost_.empty()));
}

bool ShellSession::replace(size_t index, std::unique_ptr<Demo> fresh, const Setup* setup) {
  // What belongs to the demo going (A/B's B half, the ladder's run) ends first.
  if (elements_)
    for (auto& e : *elements_) e->demo_replaced(*this);
  if (attached_) guarded("detach", [&] { demos_[index_]->detach(); });
  attached_ = false;
  if (fresh) demos_[index] = std::move(fresh);
  if (setup) setups_[index] = *setup;
  demos_[index]->bind(setups_[index]);
  index_ = index;
  timings_.forget();  // the previous demo's rows go with it
  if (platform_) platform_->set_title("gpulab - " + std::string(demos_[index_]->title()));
  return attach_current();
}

void ShellSession::detach() {
  if (!attached_) return;
  try {
    demos_[index_]->detach();
  } catch (...) {
  }
  attached_ = false;
}

std::string ShellSession::start(const Setup& setup) {
  size_t index = demos_.size();
  for (size_t i = 0; i < demos_.size(); ++i)
    if (demos_[i]->name() == setup.demo) index = i;
  if (index == demos_.size()) return "no demo " + text::quote(setup.demo);
  std::unique_ptr<Demo> fresh = make_demo(setup.demo);
  if (std::string bad = configure_fresh(*fresh, setup); !bad.empty()) return bad;
  if (!replace(index, std::move(fresh), &setup)) return attach_error_;
  return {};
}

bool ShellSession::change_picks(const Setup& next, std::string* why) {
  return gpulab::change_picks(*demos_[index_], setups_[index_], next, why);
}

void ShellSession::choose_variant(size_t stage, int variant) {
  guarded("variant", [&] {
    Setup next = setups_[index_];
    const StageTables& t = demos_[index_]->stage_tables();
    choose(t, next, pick_of(t, stage, variant));
    std::string why;
    if (change_picks(next, &why))
      timings_.clear();
    else
      notify(why);
  });
}

void ShellSession::choose_block(size_t stage, int block) {
  guarded("block", [&] {
    Setup next = setups_[index_];
    std::string why;
    if (!check_block(variant_of(demos_[index_]->stage_tables(), next.picks.at(stage)), block, &why)) {
      notify(why);
      return;
    }
    next.picks[stage].block = block;
    next.focus = stage;
    if (change_picks(next, &why))
      timings_.clear();
    else
      notify(why);
  });
}

void ShellSession::cycle_variant(int direction) {
  if (!attached_) return;
  const std::vector<Stage> stages = demos_[index_]->stages();
  const size_t lead = demos_[index_]->lead_stage();
  if (lead >= stages.size()) return;
  const auto& vs = stages[lead].variants;
  const int n = static_cast<int>(vs.size());
  int i = stages[lead].variant;
  for (int k = 0; k < n; ++k) {
    i = (i + direction + n) % n;
    if (!vs[i].available) continue;
    choose_variant(lead, i);
    return;
  }
}

const RecordedResults* ShellSession::recorded() const {
  if (recorded_) return &*recorded_;
  if (elements_)
    for (const auto& e : *elements_)
      if (const auto* lesson = dynamic_cast<const presenter::LessonElement*>(e.get()))
        return lesson->recorded();
  return nullptr;
}

presenter::Element* ShellSession::element(std::string_view name) {
  if (!elements_) return nullptr;
  for (auto& e : *elements_)
    if (e->name() == name) return e.get();
  return nullptr;
}

}  // namespace gpulab
