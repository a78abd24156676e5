#pragma once
// The shell's Session (presenter/element.h): the demos and what each runs (its Setup), the running
// one, its timings, the compute backend, the notices, and the registry of presenter elements. The
// App owns one and hands it to every element hook; the elements change what runs through it.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "core/setup.h"
#include "core/timings.h"
#include "presenter/element.h"

namespace gpulab {
namespace platform {
class Platform;
}

class ShellSession : public presenter::Session {
 public:
  // `params`: the command line's parameters of each demo (same order; empty: the defaults).
  ShellSession(const Options& options, std::vector<std::unique_ptr<Demo>> demos, std::vector<Params> params);
  ~ShellSession() override;
  ShellSession(const ShellSession&) = delete;
  ShellSession& operator=(const ShellSession&) = delete;

  // The compute backend: CUDA when a device is there (and --cpu was not given), else the CPU's.
  void init_backend();
  // The GL side: the platform (for the title and the framebuffer) and whether interop can work.
  void init_display(platform::Platform* platform);
  void set_elements(std::vector<std::unique_ptr<presenter::Element>>* elements) { elements_ = elements; }
  void set_look(const presenter::Look& look) { look_ = look; }
  Context& context_mut() { return ctx_; }

  // The demos.
  size_t demo_count() const { return demos_.size(); }
  const Demo& demo_at(size_t i) const { return *demos_[i]; }
  size_t index() const { return index_; }
  bool attached() const { return attached_; }
  const std::string& attach_error() const { return attach_error_; }
  bool had_error() const { return had_error_; }
  // Chooses the demo named `name` for the run and resolves every demo's picks for the backend; then
  // the chosen demo's Setup from the command line, checked: "" or why not.
  std::string choose_for_run(const std::string& name);
  bool attach_current();      // attaches the current demo (a failure is said and kept in attach_error)
  void select(size_t index);  // the demo picker / keys 1-9
  // Detaches the current demo and attaches demo `index` (first replaced by `fresh` running `setup` when
  // they are given); the elements hear demo_replaced first. Returns whether it attached.
  bool replace(size_t index, std::unique_ptr<Demo> fresh, const Setup* setup = nullptr);
  void detach();  // at exit
  void choose_variant(size_t stage, int variant);
  void choose_block(size_t stage, int block);
  void cycle_variant(int direction);  // V / Shift+V over the lead stage's runnable variants

  // A GPU fault (an illegal address, a lost context): an error the demo boundary caught that left the
  // CUDA context unusable is noted (guarded); then, between frames, fall_back_to_cpu ends everything
  // that held CUDA state and starts the demo again on the CPU with the same Setup (its GPU picks stand
  // in as their stages' CPU defaults). The driver gives the GPU back only to a new process.
  bool gpu_failed() const { return !gpu_failure_.empty(); }
  // Notices a fault that broke the CUDA context without waiting (one a demo caught and showed itself
  // included): the demo goes on on the CPU from the next frame.
  void check_gpu();
  void fall_back_to_cpu();
  const std::string& gpu_lost() const { return gpu_lost_; }  // why the GPU was given up ("" while in use)

  // presenter::Session
  Demo* demo() override { return attached_ ? demos_[index_].get() : nullptr; }
  const Setup& setup() const override { return setups_[index_]; }
  Timings& timings() override { return timings_; }
  const Context& context() const override { return ctx_; }
  const cuda::DeviceInfo* device() const override;
  const Options& options() const override { return options_; }
  const presenter::Look& look() const override { return look_; }
  presenter::Playback& playback() override { return playback_; }
  double now() const override;
  int framebuffer_width() const override;
  int framebuffer_height() const override;
  void notify(std::string line) override;
  // --results, else the open lesson's results file (the command line wins).
  const RecordedResults* recorded() const override;
  void set_recorded(std::optional<RecordedResults> r) { recorded_ = std::move(r); }
  const std::deque<presenter::Notice>& notices() const override { return notices_; }
  void log(const std::string& line) override;
  unsigned long long notices_said() const override { return said_; }
  void drop_notices_after(unsigned long long mark) override;
  void guarded(const char* phase, const std::function<void()>& fn) override;
  bool change_picks(const Setup& next, std::string* why) override;
  std::string start(const Setup& setup) override;
  std::string configure_fresh(Demo& demo, const Setup& setup) override;
  presenter::Element* element(std::string_view name) override;

 private:
  struct Gpu;  // CUDA state (stream, device info); empty without CUDA

  const Options& options_;
  platform::Platform* platform_ = nullptr;
  std::vector<std::unique_ptr<presenter::Element>>* elements_ = nullptr;
  std::vector<std::unique_ptr<Demo>> demos_;
  // What each demo runs (demos_[i] is bound to setups_[i]): sized once, never reallocated.
  std::vector<Setup> setups_;
  size_t index_ = 0;
  bool attached_ = false;
  std::string attach_error_;  // why the current demo could not start (shown in the panel)
  bool had_error_ = false;
  Timings timings_;
  Context ctx_;
  std::unique_ptr<Gpu> gpu_;
  std::deque<presenter::Notice> notices_;
  unsigned long long said_ = 0;
  std::optional<RecordedResults> recorded_;
  std::string gpu_failure_;  // a fault noticed this frame, not yet acted on
  std::string gpu_lost_;     // the fault the CPU fallback answered
  presenter::Look look_;
  presenter::Playback playback_;
};

}  // namespace gpulab
