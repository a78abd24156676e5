// CUPTI's Range Profiler behind one class (counters.h). The call sequence is NVIDIA's range_profiling
// sample's: cuptiProfilerInitialize; the chip name and the counter availability image; a host object
// (cuptiProfilerHostInitialize) that turns the metric names into a configuration image; then per
// measurement cuptiRangeProfilerEnable on the context, a counter data image, SetConfig (auto range:
// one range per kernel launch; kernel replay, so a metric set that needed several passes would be
// replayed per kernel with its memory restored), Start, the launches, Stop, DecodeData, and
// EvaluateToGpuValues per range; Disable. The profiler is enabled only for the measurement, so the
// demo's own launches and the ladder's timings run unprofiled.
//
// The driver's CUcontext comes from cuCtxGetCurrent through cudaGetDriverEntryPointByVersion, so
// gpulab does not link libcuda itself (it starts, and says why, where no driver is installed).
#include "cuda/counters.h"

#include <cxxabi.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <numeric>

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

struct Counters::Impl {};
Counters::Counters() = default;
Counters::~Counters() = default;
std::string Counters::unavailable() const { return counters_build_reason(); }
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

}  // namespace

struct Counters::Impl {
  bool initialized = false;  // cuptiProfilerInitialize
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<uint8_t> config, availability;  // (the host object reads chip and availability)
  std::string chip, device_name, lasting;
  int device = -1;
  int passes = 0;

  ~Impl() { reset(); }

  // Forgets the host object and CUPTI's initialisation, so the next measurement prepares afresh
  // (after the PM sampler (pm_sampler.h) disabled its session, which may finalise CUPTI).
  void reset() {
    cupti::release_host_object(host);
    if (initialized) {
      auto p = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      cuptiProfilerDeInitialize(&p);
    }
    initialized = false;
    device = -1;
  }

  CUcontext current_context() {
    check_cuda(cudaFree(nullptr), "cannot start the CUDA runtime");
    using GetCurrent = CUresult (*)(CUcontext*);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    check_cuda(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found),
               "cannot reach the driver's cuCtxGetCurrent");
    if (!fn || found != cudaDriverEntryPointSuccess)
      throw CuptiFailure{"the driver has no cuCtxGetCurrent", true};
    CUcontext ctx = nullptr;
    if (reinterpret_cast<GetCurrent>(fn)(&ctx) != CUDA_SUCCESS || !ctx)
      throw CuptiFailure{"no current CUDA context", false};
    return ctx;
  }

  // The host object and the configuration image for `device`, made once.
  void prepare(CUcontext ctx, int dev) {
    if (host && dev == device) return;
    if (!initialized) {
      cupti::profiler_initialize(CuptiProfiler::Range);
      initialized = true;
    }
    chip = cupti::chip_name(dev, CuptiProfiler::Range);
    {
      auto p = params<CUpti_Profiler_GetCounterAvailability_Params>(
          CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
      p.ctx = ctx;
      check(cuptiProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
      availability.resize(p.counterAvailabilityImageSize);
      p.pCounterAvailabilityImage = availability.data();
      check(cuptiProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
    }
    cupti::release_host_object(host);
    host = cupti::host_object(CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip, availability.data());
    std::vector<const char*> names(kMetricNames.begin(), kMetricNames.end());
    config = cupti::config_image(host, names.data(), names.size(), &passes);
    device = dev;
  }
};

namespace {

// Enabled for one measurement: Stop (when started) and Disable on every way out.
class EnabledProfiler {
 public:
  explicit EnabledProfiler(CUcontext ctx) {
    auto p = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    p.ctx = ctx;
    check(cuptiRangeProfilerEnable(&p), "cuptiRangeProfilerEnable");
    object_ = p.pRangeProfilerObject;
  }
  ~EnabledProfiler() {
    if (started_) {
      auto p = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = object_;
      cuptiRangeProfilerStop(&p);
    }
    auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = object_;
    cuptiRangeProfilerDisable(&p);
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

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
  bool started_ = false;
};

// The names of the kernels launched while it lives, from CUPTI's callbacks on the launch calls
// (auto ranges are numbered, not named). The driver's launch calls see every kernel, the runtime's
// those launched through it; whichever list matches the ranges names them. Failing to subscribe
// (another CUPTI client holds the callbacks) only loses the names.
class LaunchNames {
 public:
  LaunchNames() {
    if (cuptiSubscribe(&subscriber_, &LaunchNames::callback, this) != CUPTI_SUCCESS) {
      subscriber_ = nullptr;
      return;
    }
    cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API);
    cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API);
  }
  ~LaunchNames() { stop(); }
  LaunchNames(const LaunchNames&) = delete;
  LaunchNames& operator=(const LaunchNames&) = delete;
  void stop() {
    if (subscriber_) cuptiUnsubscribe(subscriber_);
    subscriber_ = nullptr;
  }
  // The names for `ranges` launches, or empty when neither list has that many.
  std::vector<std::string> names(size_t ranges) const {
    if (driver_.size() == ranges) return driver_;
    if (runtime_.size() == ranges) return runtime_;
    return {};
  }

 private:
  static void CUPTIAPI callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                const void* data) {
    const auto* d = static_cast<const CUpti_CallbackData*>(data);
    if (!d || d->callbackSite != CUPTI_API_ENTER || !d->symbolName) return;
    auto* me = static_cast<LaunchNames*>(self);
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
          me->driver_.push_back(d->symbolName);
          break;
        default:
          break;
      }
    } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      const std::string_view fn = d->functionName ? d->functionName : "";
      if (fn.find("Launch") != std::string_view::npos) me->runtime_.push_back(d->symbolName);
    }
  }

  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::vector<std::string> driver_, runtime_;
};

}  // namespace

Counters::Counters() : impl_(std::make_unique<Impl>()) {}
Counters::~Counters() = default;

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
  if (std::string why = unavailable(); !why.empty()) {
    r.unavailable = why;
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [last = t0]() mutable {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    return ms;
  };
  try {
    int dev = 0;
    check_cuda(cudaGetDevice(&dev), "no CUDA device");
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) r.device = prop.name;
    const CUcontext ctx = impl_->current_context();
    impl_->prepare(ctx, dev);
    r.chip = impl_->chip;
    r.passes = impl_->passes;
    check_cuda(cudaDeviceSynchronize(), "the GPU failed before the measurement");
    r.prepare_ms = since();

    EnabledProfiler profiler(ctx);
    std::vector<const char*> names(kMetricNames.begin(), kMetricNames.end());
    std::vector<uint8_t> data;
    {
      auto p = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
          CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler.get();
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
      p.pRangeProfilerObject = profiler.get();
      p.counterDataSize = data.size();
      p.pCounterData = data.data();
      check(cuptiRangeProfilerCounterDataImageInitialize(&p), "cuptiRangeProfilerCounterDataImageInitialize");
    }
    {
      auto p = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler.get();
      p.configSize = impl_->config.size();
      p.pConfig = impl_->config.data();
      p.counterDataImageSize = data.size();
      p.pCounterDataImage = data.data();
      p.range = CUPTI_AutoRange;
      p.replayMode = CUPTI_KernelReplay;
      p.maxRangesPerPass = kMaxRanges;
      p.numNestingLevels = 1;
      p.minNestingLevel = 1;
      p.passIndex = 0;
      p.targetNestingLevel = 1;
      check(cuptiRangeProfilerSetConfig(&p), "cuptiRangeProfilerSetConfig");
    }
    LaunchNames launches;
    r.enable_ms = since();
    profiler.start();
    *launched = true;
    launch();
    check_cuda(cudaDeviceSynchronize(), "the measured step failed");
    launches.stop();
    if (!profiler.stop())
      throw CuptiFailure{"CUPTI did not submit every pass of the metric set in one step", false};
    r.step_ms = since();
    size_t dropped = 0;
    {
      auto p =
          params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler.get();
      check(cuptiRangeProfilerDecodeData(&p), "cuptiRangeProfilerDecodeData");
      dropped = p.numOfRangeDropped;
    }
    size_t ranges = 0;
    {
      auto p = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
          CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
      p.pCounterDataImage = data.data();
      p.counterDataImageSize = data.size();
      check(cuptiRangeProfilerGetCounterDataInfo(&p), "cuptiRangeProfilerGetCounterDataInfo");
      ranges = p.numTotalRanges;
    }
    const std::vector<std::string> names_by_launch = launches.names(ranges);
    for (size_t i = 0; i < ranges; ++i) {
      KernelCounters k;
      auto info = params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(
          CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
      info.pCounterDataImage = data.data();
      info.counterDataImageSize = data.size();
      info.rangeIndex = i;
      info.rangeDelimiter = "/";
      check(cuptiRangeProfilerCounterDataGetRangeInfo(&info), "cuptiRangeProfilerCounterDataGetRangeInfo");
      k.kernel = !names_by_launch.empty() ? short_kernel_name(names_by_launch[i])
                                          : "kernel " + std::to_string(i + 1);
      cupti::evaluate(impl_->host, data, i, names.data(), names.size(), k.values.data(),
                      CuptiProfiler::Range);
      r.kernels.push_back(std::move(k));
    }
    r.decode_ms = since();
    if (ranges == 0)
      r.unavailable = "the step launched no kernel to count";
    else if (dropped > 0)
      r.unavailable = "the step launched more than " + std::to_string(kMaxRanges) +
                      " kernels; gpulab records at most that many in one measurement";
  } catch (const CuptiFailure& f) {
    if (f.lasting) impl_->lasting = f.reason;
    r.unavailable = f.reason;
    r.kernels.clear();
  }
  r.total = sum_kernels(r.kernels);
  r.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

#endif  // GPULAB_HAVE_CUPTI

}  // namespace gpulab::cuda
