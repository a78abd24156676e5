// CUPTI's PM sampling behind one class (pm_sampler.h). The call sequence is NVIDIA's pm_sampling
// sample's: cuptiProfilerInitialize; the chip name and PM sampling's counter availability image; a
// host object of type CUPTI_PROFILER_TYPE_PM_SAMPLING that turns the two metric names into a
// configuration image (checked to need one pass); cuptiPmSamplingEnable on the device, a counter data
// image, SetConfig (a GPU-time trigger every interval, the hardware buffer keeping the latest
// records), Start; then every decode period DecodeData, the completed samples' times and values
// (EvaluateToGpuValues per sample), and the image reset to its initialised copy; Stop and Disable at
// the end. Every CUPTI call is made on the sampler's own thread; the window only reads the samples.
#include "cuda/pm_sampler.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "cuda/counters.h"

#if defined(GPULAB_HAVE_CUPTI)
#include <cuda_runtime.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "cuda/cupti_util.h"
#endif

namespace gpulab::cuda {

namespace {
constexpr size_t kMaxPending = 4096;  // samples kept for take() (about a minute at 20 ms)
}

struct PmSampler::Impl {
  double interval_ms, decode_ms;
  mutable std::mutex m;
  std::condition_variable cv;
  bool want = false;     // started and not paused
  bool started = false;  // start() called (and not stop())
  bool paused = false;
  bool quit = false;
  bool active = false;  // the thread holds a CUPTI PM sampling session
  std::string status = "stopped";
  bool failing = false;  // status is a failure (a passing one: the thread tries again)
  std::string lasting;   // a failure that holds for this process (permissions, no support)
  std::deque<MeterSample> pending;
  std::thread worker;

  void run();
  void push(const std::vector<MeterSample>& s) {
    std::lock_guard<std::mutex> lock(m);
    for (const MeterSample& x : s) pending.push_back(x);
    while (pending.size() > kMaxPending) pending.pop_front();
  }
};

PmSampler::PmSampler(double interval_ms, double decode_ms) : impl_(std::make_unique<Impl>()) {
  impl_->interval_ms = interval_ms > 0.1 ? interval_ms : 0.1;
  impl_->decode_ms = decode_ms > 5 ? decode_ms : 5;
}

PmSampler::~PmSampler() {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->quit = true;
    impl_->want = false;
  }
  impl_->cv.notify_all();
  if (impl_->worker.joinable()) impl_->worker.join();
}

double PmSampler::interval_ms() const { return impl_->interval_ms; }

bool PmSampler::started() const {
  std::lock_guard<std::mutex> lock(impl_->m);
  return impl_->started;
}

std::vector<MeterSample> PmSampler::take() {
  std::lock_guard<std::mutex> lock(impl_->m);
  std::vector<MeterSample> out(impl_->pending.begin(), impl_->pending.end());
  impl_->pending.clear();
  return out;
}

std::string PmSampler::status() const {
  std::lock_guard<std::mutex> lock(impl_->m);
  if (!impl_->lasting.empty()) return impl_->lasting;
  return impl_->status;
}

void PmSampler::stop() {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->started = false;
    impl_->want = false;
    if (impl_->lasting.empty()) {
      impl_->status = "stopped";
      impl_->failing = false;
    }
  }
  impl_->cv.notify_all();
}

bool PmSampler::failed() const {
  std::lock_guard<std::mutex> lock(impl_->m);
  return !impl_->lasting.empty() || impl_->failing;
}

void PmSampler::request_pause() {
  std::lock_guard<std::mutex> lock(impl_->m);
  impl_->paused = true;
  impl_->want = false;
  if (impl_->started && impl_->lasting.empty()) {
    impl_->status = "paused: the range profiler is measuring";
    impl_->failing = false;
  }
  impl_->cv.notify_all();
}

bool PmSampler::holding() const {
  std::lock_guard<std::mutex> lock(impl_->m);
  return impl_->active;
}

void PmSampler::pause() {
  request_pause();
  // CUPTI lets go within one decode call and Stop/Disable; never wait long.
  std::unique_lock<std::mutex> lock(impl_->m);
  impl_->cv.wait_for(lock, std::chrono::milliseconds(1500), [&] { return !impl_->active; });
}

void PmSampler::resume() {
  std::lock_guard<std::mutex> lock(impl_->m);
  impl_->paused = false;
  impl_->want = impl_->started;
  if (impl_->started && impl_->lasting.empty() && !impl_->active) {
    impl_->status = "starting";
    impl_->failing = false;
  }
  impl_->cv.notify_all();
}

#if !defined(GPULAB_HAVE_CUPTI)

void PmSampler::Impl::run() {}

void PmSampler::start() {
  std::lock_guard<std::mutex> lock(impl_->m);
  impl_->lasting = counters_build_reason();
}

#else  // GPULAB_HAVE_CUPTI

void PmSampler::start() {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    if (!impl_->lasting.empty()) return;
    impl_->started = true;
    impl_->want = !impl_->paused;
    if (!impl_->active) {
      impl_->status = impl_->paused ? "paused: the range profiler is measuring" : "starting";
      impl_->failing = false;
    }
    if (!impl_->worker.joinable()) impl_->worker = std::thread([this] { impl_->run(); });
  }
  impl_->cv.notify_all();
}

namespace {

using cupti::params;
using SamplerFailure = cupti::Failure;
constexpr CuptiProfiler kPm = CuptiProfiler::PmSampling;
using cupti::check;

// One PM sampling session on `device`: enabled, configured and started; stopped and disabled when
// it goes.
class Session {
 public:
  Session(int device, double interval_ms, double decode_ms) {
    try {
      open(device, interval_ms, decode_ms);
    } catch (...) {
      release();  // a half-made session must not keep PM sampling enabled on the device
      throw;
    }
  }
  ~Session() { release(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  void open(int device, double interval_ms, double decode_ms) {
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
      cudaGetLastError();
      throw SamplerFailure{"cannot start the CUDA runtime on the sampler's thread", false};
    }
    cupti::profiler_initialize(kPm);
    chip_ = cupti::chip_name(device, kPm);
    {
      auto p = params<CUpti_PmSampling_GetCounterAvailability_Params>(
          CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
      p.deviceIndex = size_t(device);
      check(cuptiPmSamplingGetCounterAvailability(&p), "cuptiPmSamplingGetCounterAvailability", kPm);
      availability_.resize(p.counterAvailabilityImageSize);
      p.pCounterAvailabilityImage = availability_.data();
      check(cuptiPmSamplingGetCounterAvailability(&p), "cuptiPmSamplingGetCounterAvailability", kPm);
    }
    host_ = cupti::host_object(CUPTI_PROFILER_TYPE_PM_SAMPLING, chip_, availability_.data());
    int passes = 0;
    config_ = cupti::config_image(host_, names_, 2, &passes, kPm);
    if (passes != 1)
      throw SamplerFailure{"the meters' metrics need " + std::to_string(passes) +
                               " passes on this GPU; PM sampling takes one-pass metrics only",
                           true};
    {
      auto p = params<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
      p.deviceIndex = size_t(device);
      check(cuptiPmSamplingEnable(&p), "cuptiPmSamplingEnable", kPm);
      object_ = p.pPmSamplingObject;
    }
    // Room for every sample of a few decode periods (decoding may fall behind a busy frame).
    const double per_decode = decode_ms / interval_ms;
    const uint32_t max_samples = uint32_t(std::min(65536.0, std::max(256.0, 8 * per_decode)));
    {
      auto p = params<CUpti_PmSampling_GetCounterDataSize_Params>(
          CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
      p.pPmSamplingObject = object_;
      p.pMetricNames = names_;
      p.numMetrics = 2;
      p.maxSamples = max_samples;
      check(cuptiPmSamplingGetCounterDataSize(&p), "cuptiPmSamplingGetCounterDataSize", kPm);
      image_.assign(p.counterDataSize, 0);
    }
    {
      auto p = params<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
          CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
      p.pPmSamplingObject = object_;
      p.counterDataSize = image_.size();
      p.pCounterData = image_.data();
      check(cuptiPmSamplingCounterDataImageInitialize(&p), "cuptiPmSamplingCounterDataImageInitialize", kPm);
      blank_ = image_;
    }
    {
      auto p = params<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
      p.pPmSamplingObject = object_;
      p.configSize = config_.size();
      p.pConfig = config_.data();
      p.hardwareBufferSize = size_t(64) << 20;
      p.samplingInterval = uint64_t(interval_ms * 1e6);  // ns
      p.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
      // (the default append mode, keep-oldest: decoding every period drains the buffer long before
      // 64 MiB of records pile up)
      check(cuptiPmSamplingSetConfig(&p), "cuptiPmSamplingSetConfig", kPm);
    }
    {
      auto p = params<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
      p.pPmSamplingObject = object_;
      check(cuptiPmSamplingStart(&p), "cuptiPmSamplingStart", kPm);
      started_ = true;
    }
  }

  void release() {
    if (started_) {
      auto p = params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
      p.pPmSamplingObject = object_;
      cuptiPmSamplingStop(&p);
    }
    if (object_) {
      auto p = params<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
      p.pPmSamplingObject = object_;
      cuptiPmSamplingDisable(&p);
    }
    cupti::release_host_object(host_);
    started_ = false;
    object_ = nullptr;
  }

 public:
  // The samples completed since the last decode; `overflow` when the hardware dropped some.
  std::vector<MeterSample> decode(bool* overflow) {
    std::vector<MeterSample> out;
    for (int round = 0; round < 8; ++round) {  // until the hardware buffer is drained
      auto d = params<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
      d.pPmSamplingObject = object_;
      d.pCounterDataImage = image_.data();
      d.counterDataImageSize = image_.size();
      check(cuptiPmSamplingDecodeData(&d), "cuptiPmSamplingDecodeData", kPm);
      if (d.overflow) *overflow = true;
      auto info = params<CUpti_PmSampling_GetCounterDataInfo_Params>(
          CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
      info.pCounterDataImage = image_.data();
      info.counterDataImageSize = image_.size();
      check(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo", kPm);
      for (size_t i = 0; i < info.numCompletedSamples; ++i) {
        auto si = params<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
            CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
        si.pPmSamplingObject = object_;
        si.pCounterDataImage = image_.data();
        si.counterDataImageSize = image_.size();
        si.sampleIndex = i;
        check(cuptiPmSamplingCounterDataGetSampleInfo(&si), "cuptiPmSamplingCounterDataGetSampleInfo", kPm);
        double values[2] = {0, 0};
        cupti::evaluate(host_, image_, i, names_, 2, values, kPm);
        out.push_back({double(si.endTimestamp) * 1e-9, values[0], values[1]});
      }
      image_ = blank_;  // the next decode starts on an empty image
      if (d.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) break;
    }
    return out;
  }

 private:
  const char* names_[2] = {kMeterDramMetric, kMeterSmMetric};
  CUpti_Profiler_Host_Object* host_ = nullptr;
  CUpti_PmSampling_Object* object_ = nullptr;
  bool started_ = false;
  // The chip name, the availability image and the configuration image are read by CUPTI for as long
  // as the session lives (the host object and SetConfig keep pointers to them, they do not copy):
  // they are members, not locals of open(). As locals, the first DecodeData read freed memory and
  // crashed inside libnvperf_host.
  std::string chip_;
  std::vector<uint8_t> availability_, config_;
  std::vector<uint8_t> image_, blank_;
};

}  // namespace

void PmSampler::Impl::run() {
  std::unique_lock<std::mutex> lock(m);
  while (!quit) {
    cv.wait(lock, [&] { return quit || (want && lasting.empty()); });
    if (quit) break;
    std::string failure;
    bool failure_lasting = false;
    active = true;  // from here until the session is gone: pause() waits for it
    lock.unlock();
    try {
      int device = 0, count = 0;
      if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        throw SamplerFailure{"no CUDA device: the meters sample a GPU", true};
      }
      cudaGetDevice(&device);
      Session session(device, interval_ms, decode_ms);
      lock.lock();
      if (want) {
        status.clear();
        failing = false;
      }
      while (!quit && want) {
        cv.wait_for(lock, std::chrono::duration<double, std::milli>(decode_ms),
                    [&] { return quit || !want; });
        if (quit || !want) break;
        lock.unlock();
        bool overflow = false;
        const std::vector<MeterSample> s = session.decode(&overflow);
        push(s);  // (an overflow drops the oldest records: the plot bridges the gap)
        lock.lock();
      }
      lock.unlock();
    } catch (const SamplerFailure& f) {
      failure = f.reason;
      failure_lasting = f.lasting;
    } catch (const std::exception& e) {
      failure = std::string("the sampler failed: ") + e.what();
    }
    lock.lock();
    active = false;
    if (!failure.empty()) {
      if (failure_lasting) lasting = failure;
      status = failure;
      failing = true;
    } else if (!quit) {
      status = paused ? "paused: the range profiler is measuring" : started ? "starting" : "stopped";
      failing = false;
    }
    cv.notify_all();
    // A passing failure (the counters busy with another tool): try again after a while, not at once.
    if (!failure.empty() && !failure_lasting)
      cv.wait_for(lock, std::chrono::seconds(2), [&] { return quit || !want; });
  }
  active = false;
  cv.notify_all();
}

#endif  // GPULAB_HAVE_CUPTI

}  // namespace gpulab::cuda
