// CUPTI's Range Profiler behind one class (counters.h). The call sequence is NVIDIA's range_profiling
// sample's: cuptiProfilerInitialize; the chip name and the counter availability image; a host object
// (cuptiProfilerHostInitialize) that turns the metric names into a configuration image; then per
// measurement cuptiRangeProfilerEnable on the context, a counter data image, SetConfig (auto range:
// one range per kernel launch), Start, the launches, Stop, DecodeData, and EvaluateToGpuValues per
// range; Disable. The profiler is enabled only for the measurement, so the demo's own launches and the
// ladder's timings run unprofiled. What does not profile is kept from the first measurement on
// (CountersStrategy): CUPTI's initialisation, the host object, the configuration image, the counter
// data image initialised once and copied, and the callback subscriber (its callbacks off between
// measurements). A metric set of one pass is measured in user replay (the step runs once, as it is);
// one of several passes would need kernel replay (each kernel replayed, its memory restored).
//
// The driver's CUcontext comes from cuCtxGetCurrent through cudaGetDriverEntryPointByVersion, so
// gpulab does not link libcuda itself (it starts, and says why, where no driver is installed).
#include "cuda/counters.h"

#include <cxxabi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>

#include "common/text.h"

#if defined(GPULAB_HAVE_CUPTI)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "cuda/cupti_util.h"
#endif

namespace gpulab::cuda {

KernelCounters sum_kernels(const std::vector<KernelCounters>& kernels) {
  KernelCounters t;
  t.kernel = "all kernels";
  t.launches = 0;
  double weight = 0;
  std::array<double, kMetricCount> weighted{};
  for (const KernelCounters& k : kernels) {
    t.launches += k.launches;
    const double w = k[Metric::Duration] > 0 ? k[Metric::Duration] : 0;
    weight += w;
    for (size_t i = 0; i < kMetricCount; ++i) {
      const Metric m = static_cast<Metric>(i);
      if (m == Metric::WarpsActivePct || m == Metric::DramThroughputPct || m == Metric::Ipc)
        weighted[i] += w * k.values[i];
      else
        t.values[i] += k.values[i];
    }
  }
  for (Metric m : {Metric::WarpsActivePct, Metric::DramThroughputPct, Metric::Ipc}) {
    const size_t i = static_cast<size_t>(m);
    if (weight > 0) {
      t.values[i] = weighted[i] / weight;
    } else if (!kernels.empty()) {  // no durations: the plain mean
      double s = 0;
      for (const KernelCounters& k : kernels) s += k.values[i];
      t.values[i] = s / double(kernels.size());
    }
  }
  if (kernels.size() == 1) t.kernel = kernels.front().kernel;
  return t;
}

std::string short_kernel_name(std::string_view range_name) {
  std::string name(range_name);
  if (name.rfind("_Z", 0) == 0) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                             std::free);
    if (status == 0 && d) name = d.get();
  }
  for (const std::string anon : {"(anonymous namespace)::", "{anonymous}::"})
    for (size_t at; (at = name.find(anon)) != std::string::npos;) name.erase(at, anon.size());
  // "void life::step_shared<32>(unsigned int const*, ...)": drop the parameters, the return type and
  // the namespaces (outside template arguments), then template arguments too long to read.
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) {
      name.resize(i);
      break;
    }
  }
  depth = 0;
  size_t start = 0;
  for (size_t i = name.size(); i-- > 0;) {
    const char c = name[i];
    if (c == '>') ++depth;
    if (c == '<') --depth;
    if (depth != 0) continue;
    if (c == ' ') {
      start = i + 1;
      break;
    }
    if (c == ':' && i > 0 && name[i - 1] == ':') {
      start = i + 1;
      break;
    }
  }
  name = name.substr(start);
  if (const size_t lt = name.find('<'); lt != std::string::npos && name.size() - lt > 24)
    name = name.substr(0, lt) + "<\xE2\x80\xA6>";
  return name.empty() ? std::string(range_name) : name;
}

namespace {

double steady_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

PhaseTimer::PhaseTimer() : last_(steady_ms()) {}

void PhaseTimer::mark(std::string name) {
  const double now = steady_ms();
  phases_.push_back({std::move(name), now - last_});
  last_ = now;
}

double PhaseTimer::sum(std::initializer_list<std::string_view> names) const {
  double s = 0;
  for (const Phase& p : phases_)
    for (std::string_view n : names)
      if (p.name == n) s += p.ms;
  return s;
}

double PhaseTimer::total() const {
  double s = 0;
  for (const Phase& p : phases_) s += p.ms;
  return s;
}

std::optional<CountersStrategy> parse_counters_strategy(std::string_view spec, std::string* why) {
  CountersStrategy s;
  auto as_main = [&] {
    s.kernel_replay = true;
    s.keep_data_image = false;
    s.keep_subscriber = false;
  };
  size_t at = 0;
  while (at <= spec.size()) {
    size_t end = spec.find_first_of("+,", at);
    if (end == std::string_view::npos) end = spec.size();
    std::string_view name = spec.substr(at, end - at);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty() || name == "default") {
    } else if (name == "main") {
      as_main();
    } else if (name == "cold") {
      as_main();
      s.cold = true;
    } else if (name == "kernel-replay") {
      s.kernel_replay = true;
    } else if (name == "image-each") {
      s.keep_data_image = false;
    } else if (name == "subscribe-each") {
      s.keep_subscriber = false;
    } else if (name == "keep-enabled") {
      s.keep_enabled = true;
    } else if (name == "no-names") {
      s.names = false;
    } else {
      if (why)
        *why = "no counters strategy " + text::quote(name, 64) +
               " (default, main, cold, kernel-replay, image-each, subscribe-each, keep-enabled, no-names)";
      return std::nullopt;
    }
    at = end + 1;
  }
  return s;
}

std::string counters_strategy_name(const CountersStrategy& s) {
  std::vector<std::string> names;
  const bool main_like = s.kernel_replay && !s.keep_data_image && !s.keep_subscriber;
  if (s.cold && main_like) {
    names.push_back("cold");
  } else if (main_like) {
    names.push_back("main");
  } else {
    if (s.cold) names.push_back("cold");  // (not made by the parser: cold implies main's choices)
    if (s.kernel_replay) names.push_back("kernel-replay");
    if (!s.keep_data_image) names.push_back("image-each");
    if (!s.keep_subscriber) names.push_back("subscribe-each");
  }
  if (s.keep_enabled) names.push_back("keep-enabled");
  if (!s.names) names.push_back("no-names");
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : "+") + n;
  return out.empty() ? "default" : out;
}

namespace {

// GPULAB_COUNTERS's strategy, the default where it is unset or names none.
CountersStrategy strategy_from_environment() {
  const char* spec = std::getenv("GPULAB_COUNTERS");
  if (!spec) return {};
  std::string why;
  if (std::optional<CountersStrategy> s = parse_counters_strategy(spec, &why)) return *s;
  std::fprintf(stderr, "gpulab: GPULAB_COUNTERS: %s; measuring with the default\n", why.c_str());
  return {};
}

}  // namespace

#if !defined(GPULAB_HAVE_CUPTI)

std::string counters_build_reason() {
#if defined(GPULAB_HAVE_CUDA)
  return "this gpulab was built without CUPTI (the CUDA toolkit's profiling library, extras/CUPTI, was not "
         "found at configure time): rebuild with a toolkit that has it";
#else
  return "this gpulab was built without CUDA (the CPU backend only): there is no GPU to count on";
#endif
}

int metric_passes(const std::string&, const std::vector<std::string>&, bool, std::string* why) {
  if (why) *why = counters_build_reason();
  return 0;
}

struct Counters::Impl {
  CountersStrategy strategy;
};
Counters::Counters() : Counters(strategy_from_environment()) {}
Counters::Counters(const CountersStrategy& strategy) : impl_(std::make_unique<Impl>()) {
  impl_->strategy = strategy;
}
Counters::~Counters() = default;
std::string Counters::unavailable() const { return counters_build_reason(); }
const CountersStrategy& Counters::strategy() const { return impl_->strategy; }
void Counters::release() {}
CounterResult Counters::measure(const std::function<void()>&) {
  CounterResult r;
  r.unavailable = counters_build_reason();
  return r;
}

#else  // GPULAB_HAVE_CUPTI

std::string counters_build_reason() { return {}; }

namespace {

using cupti::check;
using cupti::params;
using CuptiFailure = cupti::Failure;

constexpr size_t kMaxRanges = 64;  // kernel launches one measurement records

void check_cuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  throw CuptiFailure{std::string(what) + ": " + cudaGetErrorString(e), false};
}

CUpti_RangeProfiler_Object* enable_profiler(CUcontext ctx) {
  auto p = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  p.ctx = ctx;
  check(cuptiRangeProfilerEnable(&p), "cuptiRangeProfilerEnable");
  return p.pRangeProfilerObject;
}

void disable_profiler(CUpti_RangeProfiler_Object* object) {
  auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  p.pRangeProfilerObject = object;
  cuptiRangeProfilerDisable(&p);
}

// The kernel names the launch callbacks saw, driver's and runtime's.
struct NameLists {
  std::vector<std::string> driver, runtime;
};
NameLists g_names;  // (one measurement at a time: Counters is not thread-safe)
// The subscriber kept between measurements (CUPTI allows one a process), shared by every Counters
// object and released with the last of them; its callbacks are enabled only during a measurement.
CUpti_SubscriberHandle g_kept_subscriber = nullptr;
int g_counters_alive = 0;

void CUPTIAPI launch_callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const void* data) {
  const auto* d = static_cast<const CUpti_CallbackData*>(data);
  if (!d || d->callbackSite != CUPTI_API_ENTER || !d->symbolName) return;
  auto* lists = static_cast<NameLists*>(self);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (cbid) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
        lists->driver.push_back(d->symbolName);
        break;
      default:
        break;
    }
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    const std::string_view fn = d->functionName ? d->functionName : "";
    if (fn.find("Launch") != std::string_view::npos) lists->runtime.push_back(d->symbolName);
  }
}

void release_kept_subscriber() {
  if (g_kept_subscriber) cuptiUnsubscribe(g_kept_subscriber);
  g_kept_subscriber = nullptr;
}

// The names of the kernels launched between begin() and end(), from CUPTI's callbacks on the launch
// calls (auto ranges are numbered, not named). The driver's launch calls see every kernel, the
// runtime's those launched through it; whichever list matches the ranges names them. Failing to
// subscribe (another CUPTI client holds the callbacks) only loses the names.
class LaunchNames {
 public:
  LaunchNames() = default;
  ~LaunchNames() { end(); }
  LaunchNames(const LaunchNames&) = delete;
  LaunchNames& operator=(const LaunchNames&) = delete;

  // keep: subscribe once and keep the subscriber (else subscribe for this measurement only).
  void begin(bool keep) {
    g_names = {};
    if (g_kept_subscriber) {
      subscriber_ = g_kept_subscriber;
    } else if (cuptiSubscribe(&subscriber_, &launch_callback, &g_names) != CUPTI_SUCCESS) {
      subscriber_ = nullptr;
      return;
    } else if (keep) {
      g_kept_subscriber = subscriber_;
    }
    cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API);
    cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API);
  }
  void end() {
    if (!subscriber_) return;
    if (subscriber_ == g_kept_subscriber) {
      cuptiEnableDomain(0, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API);
      cuptiEnableDomain(0, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API);
    } else {
      cuptiUnsubscribe(subscriber_);
    }
    subscriber_ = nullptr;
  }
  // The names for `ranges` launches, or empty when neither list has that many.
  static std::vector<std::string> names(size_t ranges) {
    if (g_names.driver.size() == ranges) return g_names.driver;
    if (g_names.runtime.size() == ranges) return g_names.runtime;
    return {};
  }

 private:
  CUpti_SubscriberHandle subscriber_ = nullptr;
};

}  // namespace

struct Counters::Impl {
  CountersStrategy strategy;
  bool initialized = false;  // cuptiProfilerInitialize
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<uint8_t> availability;  // (the host object reads chip and availability)
  std::string chip, device_name, lasting;
  int device = -1, named_device = -1;
  void* get_current = nullptr;  // the driver's cuCtxGetCurrent
  // The configuration image (and its passes) and the initialised counter data image of the metric
  // set, per device: made by the first measurement, copied by the next ones.
  ImageCache<std::pair<std::vector<uint8_t>, int> > configs;
  ImageCache<std::vector<uint8_t> > data_images;
  const std::vector<uint8_t>* config = nullptr;
  int passes = 0;
  CUpti_RangeProfiler_Object* held = nullptr;  // keep-enabled: enabled, not started, between measurements
  bool user_replay_refused = false;            // CUPTI refused user replay: kernel replay from then on
  bool kept_image_refused = false;  // SetConfig refused a kept counter data image: one made each time

  Impl() { ++g_counters_alive; }
  ~Impl() {
    reset();
    if (--g_counters_alive == 0) release_kept_subscriber();
  }

  void release_held() {
    if (held) disable_profiler(held);
    held = nullptr;
  }

  // Forgets the host object, the images and CUPTI's initialisation, so the next measurement prepares
  // afresh (after the PM sampler (pm_sampler.h) disabled its session, which may finalise CUPTI).
  void reset() {
    release_held();
    release_kept_subscriber();
    cupti::release_host_object(host);
    if (initialized) {
      auto p = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      cuptiProfilerDeInitialize(&p);
    }
    initialized = false;
    device = -1;
    config = nullptr;
    configs.clear();
    data_images.clear();
  }

  CUcontext current_context() {
    using GetCurrent = CUresult (*)(CUcontext*);
    if (!get_current) {
      check_cuda(cudaFree(nullptr), "cannot start the CUDA runtime");
      void* fn = nullptr;
      cudaDriverEntryPointQueryResult found{};
      check_cuda(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found),
                 "cannot reach the driver's cuCtxGetCurrent");
      if (!fn || found != cudaDriverEntryPointSuccess)
        throw CuptiFailure{"the driver has no cuCtxGetCurrent", true};
      get_current = fn;
    }
    CUcontext ctx = nullptr;
    if (reinterpret_cast<GetCurrent>(get_current)(&ctx) != CUDA_SUCCESS || !ctx) {
      check_cuda(cudaFree(nullptr), "cannot start the CUDA runtime");  // (no context yet: make it)
      if (reinterpret_cast<GetCurrent>(get_current)(&ctx) != CUDA_SUCCESS || !ctx)
        throw CuptiFailure{"no current CUDA context", false};
    }
    return ctx;
  }

  CounterImageKey key() const {
    return {device, chip, std::vector<std::string>(kMetricNames.begin(), kMetricNames.end()), kMaxRanges};
  }

  // The host object and the configuration image for `device`, made once (each time: cold).
  // Returns true when it prepared.
  bool prepare(CUcontext ctx, int dev, PhaseTimer& timer) {
    if (strategy.cold) reset();
    if (host && dev == device) return false;
    if (!initialized) {
      cupti::profiler_initialize(CuptiProfiler::Range);
      initialized = true;
    }
    timer.mark("init");
    chip = cupti::chip_name(dev, CuptiProfiler::Range);
    timer.mark("chip");
    {
      auto p = params<CUpti_Profiler_GetCounterAvailability_Params>(
          CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
      p.ctx = ctx;
      check(cuptiProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
      availability.resize(p.counterAvailabilityImageSize);
      p.pCounterAvailabilityImage = availability.data();
      check(cuptiProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
    }
    timer.mark("availability");
    cupti::release_host_object(host);
    configs.clear();  // (made on the host object this replaces)
    data_images.clear();
    device = -1;
    host = cupti::host_object(CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip, availability.data());
    timer.mark("host");
    device = dev;
    const auto& made = configs.get(key(), [&] {
      std::vector<const char*> names(kMetricNames.begin(), kMetricNames.end());
      int n = 0;
      std::vector<uint8_t> image = cupti::config_image(host, names.data(), names.size(), &n);
      return std::make_pair(std::move(image), n);
    });
    config = &made.first;
    passes = made.second;
    timer.mark("config");
    return true;
  }

  // An initialised counter data image of the metric set, for `object`'s profiler.
  static std::vector<uint8_t> make_data_image(CUpti_RangeProfiler_Object* object) {
    std::vector<const char*> names(kMetricNames.begin(), kMetricNames.end());
    std::vector<uint8_t> data;
    {
      auto p = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
          CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = object;
      p.pMetricNames = names.data();
      p.numMetrics = names.size();
      p.maxNumOfRanges = kMaxRanges;
      p.maxNumRangeTreeNodes = kMaxRanges;
      check(cuptiRangeProfilerGetCounterDataSize(&p), "cuptiRangeProfilerGetCounterDataSize");
      data.assign(p.counterDataSize, 0);
    }
    {
      auto p = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
          CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = object;
      p.counterDataSize = data.size();
      p.pCounterData = data.data();
      check(cuptiRangeProfilerCounterDataImageInitialize(&p), "cuptiRangeProfilerCounterDataImageInitialize");
    }
    return data;
  }
};

namespace {

// The profiler of one measurement: Stop (when started) on every way out, and Disable, unless it is
// to be kept enabled (keep()) after a measurement that succeeded.
class EnabledProfiler {
 public:
  explicit EnabledProfiler(CUpti_RangeProfiler_Object* object) : object_(object) {}
  ~EnabledProfiler() {
    if (started_) {
      auto p = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = object_;
      cuptiRangeProfilerStop(&p);
    }
    if (object_) disable_profiler(object_);
  }
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
  CUpti_RangeProfiler_Object* get() const { return object_; }
  void start() {
    auto p = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = object_;
    check(cuptiRangeProfilerStart(&p), "cuptiRangeProfilerStart");
    started_ = true;
  }
  bool stop() {  // true when every pass was submitted
    auto p = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = object_;
    started_ = false;
    check(cuptiRangeProfilerStop(&p), "cuptiRangeProfilerStop");
    return p.isAllPassSubmitted != 0;
  }
  // Hands the enabled profiler over (not disabled here).
  CUpti_RangeProfiler_Object* keep() {
    CUpti_RangeProfiler_Object* o = object_;
    object_ = nullptr;
    return o;
  }
  void disable() {
    if (object_) disable_profiler(object_);
    object_ = nullptr;
  }

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
  bool started_ = false;
};

}  // namespace

Counters::Counters() : Counters(strategy_from_environment()) {}
Counters::Counters(const CountersStrategy& strategy) : impl_(std::make_unique<Impl>()) {
  impl_->strategy = strategy;
}
Counters::~Counters() = default;

const CountersStrategy& Counters::strategy() const { return impl_->strategy; }
void Counters::release() { impl_->release_held(); }

std::string Counters::unavailable() const {
  if (!impl_->lasting.empty()) return impl_->lasting;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    return "no CUDA device: the counters count a GPU's work";
  }
  return {};
}

CounterResult Counters::measure(const std::function<void()>& launch) {
  const bool was_prepared = impl_->host != nullptr;
  bool launched = false;
  CounterResult r = attempt(launch, &launched);
  // CUPTI may have been finalised under the prepared profiler (the PM sampler's session ended):
  // prepare afresh and try once more, unless the step already ran or the failure lasts.
  if (!r.ok() && was_prepared && !launched && impl_->lasting.empty()) {
    impl_->reset();
    r = attempt(launch, &launched);
  }
  return r;
}

CounterResult Counters::attempt(const std::function<void()>& launch, bool* launched) {
  CounterResult r;
  r.strategy = counters_strategy_name(impl_->strategy);
  if (std::string why = unavailable(); !why.empty()) {
    r.unavailable = why;
    return r;
  }
  Impl& im = *impl_;
  const CountersStrategy& st = im.strategy;
  PhaseTimer timer;
  try {
    int dev = 0;
    check_cuda(cudaGetDevice(&dev), "no CUDA device");
    if (dev != im.named_device) {
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) im.device_name = prop.name;
      im.named_device = dev;
    }
    r.device = im.device_name;
    const CUcontext ctx = im.current_context();
    timer.mark("device");
    r.first = im.prepare(ctx, dev, timer);
    r.chip = im.chip;
    r.passes = im.passes;
    check_cuda(cudaDeviceSynchronize(), "the GPU failed before the measurement");
    timer.mark("sync-before");

    // Kernel replay replays each kernel as often as the set needs passes, its memory restored; one
    // pass needs no replay, and user replay then runs the step as it is.
    bool user_replay = !st.kernel_replay && im.passes == 1 && !im.user_replay_refused;
    CUpti_RangeProfiler_Object* object = im.held ? im.held : enable_profiler(ctx);
    im.held = nullptr;
    EnabledProfiler profiler(object);
    timer.mark("enable");
    std::vector<uint8_t> data;
    const bool keep_image = st.keep_data_image && !im.kept_image_refused;
    if (keep_image)
      data = im.data_images.get(im.key(), [&] { return Impl::make_data_image(profiler.get()); });
    else
      data = Impl::make_data_image(profiler.get());
    timer.mark("data-image");
    auto set_config = [&](bool user) {
      auto p = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler.get();
      p.configSize = im.config->size();
      p.pConfig = im.config->data();
      p.counterDataImageSize = data.size();
      p.pCounterDataImage = data.data();
      p.range = CUPTI_AutoRange;
      p.replayMode = user ? CUPTI_UserReplay : CUPTI_KernelReplay;
      p.maxRangesPerPass = kMaxRanges;
      p.numNestingLevels = 1;
      p.minNestingLevel = 1;
      p.passIndex = 0;
      p.targetNestingLevel = 1;
      return cuptiRangeProfilerSetConfig(&p);
    };
    CUptiResult configured = set_config(user_replay);
    if (configured != CUPTI_SUCCESS && keep_image) {  // a CUPTI that wants each profiler's own image
      im.kept_image_refused = true;
      r.strategy += " (kept image refused)";
      data = Impl::make_data_image(profiler.get());
      configured = set_config(user_replay);
    }
    if (configured != CUPTI_SUCCESS && user_replay) {  // a CUPTI that refuses user replay with auto range
      im.user_replay_refused = true;
      r.strategy += " (user replay refused)";
      user_replay = false;
      configured = set_config(false);
    }
    check(configured, "cuptiRangeProfilerSetConfig");
    r.user_replay = user_replay;
    timer.mark("set-config");
    LaunchNames launches;
    if (st.names) launches.begin(st.keep_subscriber);
    timer.mark("subscribe");
    profiler.start();
    timer.mark("start");
    *launched = true;
    launch();
    timer.mark("launch");
    check_cuda(cudaDeviceSynchronize(), "the measured step failed");
    timer.mark("sync");
    launches.end();
    timer.mark("unsubscribe");
    if (!profiler.stop()) {
      if (user_replay) im.user_replay_refused = true;  // (the next measurements in kernel replay)
      throw CuptiFailure{"CUPTI did not submit every pass of the metric set in one step", false};
    }
    timer.mark("stop");
    size_t dropped = 0;
    {
      auto p =
          params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler.get();
      check(cuptiRangeProfilerDecodeData(&p), "cuptiRangeProfilerDecodeData");
      dropped = p.numOfRangeDropped;
    }
    timer.mark("decode");
    size_t ranges = 0;
    {
      auto p = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
          CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
      p.pCounterDataImage = data.data();
      p.counterDataImageSize = data.size();
      check(cuptiRangeProfilerGetCounterDataInfo(&p), "cuptiRangeProfilerGetCounterDataInfo");
      ranges = p.numTotalRanges;
    }
    std::vector<const char*> names(kMetricNames.begin(), kMetricNames.end());
    const std::vector<std::string> names_by_launch = LaunchNames::names(ranges);
    for (size_t i = 0; i < ranges; ++i) {
      KernelCounters k;
      k.kernel = !names_by_launch.empty() ? short_kernel_name(names_by_launch[i])
                                          : "kernel " + std::to_string(i + 1);
      cupti::evaluate(im.host, data, i, names.data(), names.size(), k.values.data(), CuptiProfiler::Range);
      r.kernels.push_back(std::move(k));
    }
    timer.mark("evaluate");
    if (st.keep_enabled && !st.cold)
      im.held = profiler.keep();
    else
      profiler.disable();
    timer.mark("disable");
    if (ranges == 0)
      r.unavailable = "the step launched no kernel to count";
    else if (dropped > 0)
      r.unavailable = "the step launched more than " + std::to_string(kMaxRanges) +
                      " kernels; gpulab records at most that many in one measurement";
  } catch (const CuptiFailure& f) {
    if (f.lasting) im.lasting = f.reason;
    r.unavailable = f.reason;
    r.kernels.clear();
    timer.mark("failed");
  }
  if (st.cold) {
    im.reset();
    timer.mark("release");
  }
  r.total = sum_kernels(r.kernels);
  r.phases = timer.phases();
  r.prepare_ms = timer.sum({"device", "init", "chip", "availability", "host", "config", "sync-before"});
  r.enable_ms = timer.sum({"enable", "data-image", "set-config", "subscribe"});
  r.step_ms = timer.sum({"start", "launch", "sync", "unsubscribe", "stop"});
  r.decode_ms = timer.sum({"decode", "evaluate", "disable", "release"});
  r.host_ms = timer.total();
  return r;
}

#endif  // GPULAB_HAVE_CUPTI

}  // namespace gpulab::cuda
