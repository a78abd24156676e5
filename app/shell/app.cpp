// The application shell: platform, backend, ImGui, demos, frame loop, hotkeys, screenshots.
#include "shell/app.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "common/cuda_probe.h"
#include "common/error.h"
#include "common/text.h"
#include "core/batch.h"
#include "core/keymap.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "platform/platform.h"
#include "presenter/counters_command.h"
#include "presenter/counters_view.h"
#include "presenter/ladder.h"
#include "presenter/ladder_command.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson_player.h"
#include "presenter/recorder.h"
#include "shell/bench_driver.h"
#include "ui/panels.h"

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cuda/device_info.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#endif

namespace gpulab {

struct App::Gpu {
#if defined(GPULAB_HAVE_CUDA)
  cuda::Stream stream;
  cuda::DeviceInfo info;
#endif
};

const cuda::DeviceInfo* App::cuda_device_info() const {
#if defined(GPULAB_HAVE_CUDA)
  if (ctx_.cuda && gpu_) return &gpu_->info;
#endif
  return nullptr;
}

namespace {
// Key presses are queued from GLFW's callback (ImGui chains to it) rather than read from ImGui's key
// state: a tap that starts and ends between two slow frames (a big grid on the CPU) still counts.
std::vector<App::KeyPress>* g_key_queue = nullptr;
void queue_key(GLFWwindow*, int key, int, int action, int mods) {
  if (g_key_queue && (action == GLFW_PRESS || action == GLFW_REPEAT))
    g_key_queue->push_back({key, mods, action == GLFW_REPEAT});
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

App::App(Options options, std::vector<std::unique_ptr<Demo>> demos, std::vector<Params> params)
    : options_(std::move(options)), demos_(std::move(demos)) {
  vsync_ = options_.vsync;
  caption_ = options_.caption;
  if (demos_.empty()) demos_ = make_demos();
  // What each demo runs: the command line's parameters (its demo's); init resolves the picks.
  setups_.reserve(demos_.size());
  for (size_t i = 0; i < demos_.size(); ++i) {
    setups_.emplace_back();
    setups_[i].demo = std::string(demos_[i]->name());
    setups_[i].params =
        i < params.size() && params[i] ? std::move(params[i]) : Params(demos_[i]->make_params());
    demos_[i]->bind(setups_[i]);
  }
}

App::~App() { shutdown(); }

void App::notify(std::string line) {
  std::fprintf(stderr, "gpulab: %s\n", line.c_str());
  messages_.push_back({std::move(line), now_seconds()});
  while (messages_.size() > 8) messages_.pop_front();
}

void App::guarded(const char* phase, const std::function<void()>& fn) {
  // Errors stop at the demo boundary: shown in the UI, the app keeps running.
  try {
    fn();
  } catch (const std::exception& e) {
    had_error_ = true;
    notify(std::string(demos_[demo_]->name()) + " " + phase + ": " + e.what());
    playing_ = false;
  }
}

bool App::init(std::string* error) {
  // Backend: CUDA when a device is there (and --cpu was not given), else the CPU references.
  const CudaStatus cs = cuda_status();
  ctx_.cuda = cs.available && !options_.cpu;
  ctx_.cuda_device = cs.device;
  ctx_.cuda_reason = options_.cpu ? "--cpu was given" : cs.reason;
  gpu_ = std::make_unique<Gpu>();
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
  backend_banner_ =
      ctx_.cuda ? std::string() : "CPU backend: " + ctx_.cuda_reason + ". GPU variants are disabled.";

  load_settings_for_run();

  // Platform.
  std::string why;
  if (options_.headless) {
    platform::HeadlessOptions ho;
    ho.width = options_.width;
    ho.height = options_.height;
    ho.cuda_device = ctx_.cuda ? ctx_.cuda_device : -1;
    ho.force_software = options_.software_gl;
    platform_ = platform::create_headless(ho, &why);
    if (!platform_) {
      *error = "cannot create a headless GL context: " + why;
      return false;
    }
  } else {
    platform::WindowOptions wo;
    wo.width = options_.width;
    wo.height = options_.height;
    wo.vsync = vsync_;
    platform_ = platform::create_window(wo, &why);
    if (!platform_) {
      *error = "cannot open a window: " + why + " (try --headless)";
      return false;
    }
  }
  platform::Platform& pf = *platform_;
  ctx_.platform = &pf;
  if (options_.projector) set_projector(true);
  if (options_.hud) hud_ = true;
  help_ = options_.show_keys;
  std::fprintf(stderr, "gpulab: %s, %s, %s\n", pf.info().api.c_str(), pf.info().gl_renderer.c_str(),
               pf.info().gl_version.c_str());
  if (!pf.info().egl_device.empty()) std::fprintf(stderr, "gpulab: %s\n", pf.info().egl_device.c_str());
  gl::enable_debug_output();  // debug builds ask for a debug context; elsewhere this does nothing
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &options_.gl_max_texture);  // (configure checks --image against it)

  // Interop needs the GL context on the CUDA device in use.
  ctx_.interop = false;
  if (!ctx_.cuda) {
    ctx_.interop_reason = "no CUDA backend";
  } else if (pf.info().software) {
    ctx_.interop_reason = "the GL context is a software renderer (" + pf.info().gl_renderer + ")";
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

  // ImGui, with the GLFW backend for a window; headless feeds display size and time itself.
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_ = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  // Style and fonts for the UI scale: set before every frame by the Appearance (frame()).
  appearance_.update(ui_scale(), theme_, pf.framebuffer_height(), false);
  if (pf.glfw_window()) {
    g_key_queue = &key_queue_;
    glfwSetKeyCallback(pf.glfw_window(), queue_key);  // before ImGui's, which chains to it
    ImGui_ImplGlfw_InitForOpenGL(pf.glfw_window(), true);
  }
  ImGui_ImplOpenGL3_Init("#version 450 core");

  pf.on_drop([this](std::vector<std::string> paths) {
    for (const auto& p : paths) {
      std::string err;
      guarded("open", [&] {
        if (demos_[demo_]->open_file(p, &err))
          notify("opened " + p);
        else
          notify(err);
      });
    }
  });

  ctx_.timings = &timings_;
  ctx_.notify = [this](std::string s) { notify(std::move(s)); };
  ctx_.assets = std::filesystem::path(GPULAB_SOURCE_DIR) / "assets";
  {
    // Prefer the copy next to the binary (an installed or moved build).
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec && std::filesystem::exists(exe.parent_path() / "assets"))
      ctx_.assets = exe.parent_path() / "assets";
  }

  demo_ = demos_.size();
  std::string names;
  for (size_t i = 0; i < demos_.size(); ++i) {
    names += (names.empty() ? "" : ", ") + std::string(demos_[i]->name());
    if (demos_[i]->name() == options_.demo) demo_ = i;
  }
  if (demo_ == demos_.size()) {
    demo_ = 0;
    *error = "no demo " + text::quote(options_.demo) + " (demos: " + names + ")";
    return false;
  }
  // The picks, resolved once for the device in use (defaults included) before anything checks them:
  // the command line's for its demo, the defaults for the others.
  for (size_t i = 0; i < demos_.size(); ++i)
    setups_[i].picks = default_picks(demos_[i]->stage_tables(), ctx_.cuda);
  Demo& d = *demos_[demo_];
  std::string bad = resolve_setup(d, options_, std::move(setups_[demo_].params), ctx_.cuda, &setups_[demo_]);
  if (bad.empty()) bad = d.configure(options_);
  if (bad.empty() && options_.steps >= 0 && !d.batch_requested())
    bad = "--steps goes with a batch output of the " + std::string(d.name()) + " demo (see --help)";
  if (!bad.empty()) {
    *error = bad;
    return false;
  }
  pf.set_title("gpulab - " + std::string(d.title()));
  settings_.last_demo = std::string(d.name());
  // Without a window nobody can pick another demo: a demo that cannot start ends a headless run.
  if (!attach_current() && options_.headless) {
    *error = attach_error_;
    return false;
  }
  if (!options_.lesson.empty()) {
    // A lesson that cannot be read ends a headless run; a window keeps what it has and says why.
    std::string why;
    if (!open_lesson(options_.lesson, options_.lesson_step > 0 ? options_.lesson_step - 1 : 0, &why)) {
      if (options_.headless) {
        *error = why;
        return false;
      }
      notify(why);
    }
  }
  last_time_ = now_seconds();
  return true;
}

void App::shutdown() {
  ladder_.reset();  // cancels and joins a run before the demo it measures goes
  lesson_.reset();
  ab_.reset();  // the B half detaches while the GL context is there
  if (recorder_ && recorder_->recording()) {
    try {
      notify(recorder_->stop());
    } catch (...) {
    }
  }
  recorder_.reset();  // its pixel buffers go while the GL context is there
  if (attached_) {
    try {
      demos_[demo_]->detach();
    } catch (...) {
    }
    attached_ = false;
  }
  demos_.clear();
  g_key_queue = nullptr;
  if (imgui_) {
    ImGui_ImplOpenGL3_Shutdown();
    if (platform_ && platform_->glfw_window()) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    imgui_ = false;
  }
  gpu_.reset();
  platform_.reset();
}

bool App::attach_current() {
  attach_error_.clear();
  try {
    Demo& d = *demos_[demo_];
    d.attach(ctx_);
    attached_ = true;
    // A pick that cannot run here (a GPU variant without a CUDA device) becomes its stage's CPU one.
    Setup& s = setups_[demo_];
    Picks runnable = s.picks;
    if (runnable_picks(d, runnable)) {
      const Picks before = std::exchange(s.picks, runnable);
      std::string why;
      if (!d.picks_changed(before, &why)) notify(why);
    }
  } catch (const std::exception& e) {
    attached_ = false;
    attach_error_ = "cannot start " + std::string(demos_[demo_]->title()) + ": " + e.what();
    notify(attach_error_);
    // Whatever it made before failing goes (a half-attached demo must not be drawn).
    try {
      demos_[demo_]->detach();
    } catch (...) {
    }
  }
  return attached_;
}

void App::select_demo(size_t index) {
  if (index >= demos_.size()) {
    notify("there is no demo " + std::to_string(index + 1) + " (" + std::to_string(demos_.size()) +
           " demos)");
    return;
  }
  if (index == demo_ && attached_) return;
  replace_demo(index, nullptr, true);
}

std::string App::configure_fresh(Demo& demo, const Setup& setup) {
  demo.bind(setup);
  return demo.configure(options_without_outputs(options_.cpu));
}

bool App::replace_demo(size_t index, std::unique_ptr<Demo> fresh, bool remember, const Setup* setup) {
  stop_ab();
  ladder_.reset();  // a ladder belongs to the demo it measured (a run is cancelled and joined first)
  if (attached_) guarded("detach", [&] { demos_[demo_]->detach(); });
  attached_ = false;
  if (fresh) demos_[index] = std::move(fresh);
  if (setup) setups_[index] = *setup;
  demos_[index]->bind(setups_[index]);
  demo_ = index;
  timings_.forget();  // the previous demo's rows go with it
  if (remember) {
    settings_.last_demo = std::string(demos_[demo_]->name());
    settings_dirty_ = true;
  }
  platform_->set_title("gpulab - " + std::string(demos_[demo_]->title()));
  return attach_current();
}

bool App::change_picks(const Setup& next, std::string* why) {
  return gpulab::change_picks(*demos_[demo_], setups_[demo_], next, why);
}

void App::choose_variant(size_t stage, int variant) {
  guarded("variant", [&] {
    Setup next = setups_[demo_];
    const StageTables& t = demos_[demo_]->stage_tables();
    choose(t, next, pick_of(t, stage, variant));
    std::string why;
    if (change_picks(next, &why))
      timings_.clear();
    else
      notify(why);
  });
}

void App::choose_block(size_t stage, int block) {
  guarded("block", [&] {
    Setup next = setups_[demo_];
    std::string why;
    if (!check_block(variant_of(demos_[demo_]->stage_tables(), next.picks.at(stage)), block, &why)) {
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

void App::cycle_variant(int direction) {
  if (!attached_) return;
  const std::vector<Stage> stages = demos_[demo_]->stages();
  const size_t lead = demos_[demo_]->lead_stage();
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

void App::hotkeys() {
  std::vector<KeyPress> keys;
  keys.swap(key_queue_);
  demo_keys_.clear();
  if (ImGui::GetIO().WantCaptureKeyboard) return;  // typing into a text field
  // While the ladder is shown the demo belongs to it: only the keys marked while_ladder act (V, R,
  // 1-9... would reach into the demo its worker thread is measuring), and none reaches the demo.
  const bool ladder_shown = ladder_ && ladder_->visible();
  for (const KeyPress& k : keys) {
    const KeyBinding* b = find_shell_key(k.key, (k.mods & GLFW_MOD_CONTROL) != 0, lesson_ != nullptr);
    if (!b) {
      if (!ladder_shown && !k.repeat) demo_keys_.push_back(k.key);  // the demo's (e.g. F: fit the view)
      continue;
    }
    if ((ladder_shown && !b->while_ladder) || (k.repeat && !b->repeats)) continue;
    key_action(*b, k);
  }
}

void App::key_action(const KeyBinding& b, const KeyPress& k) {
  const bool shift = (k.mods & GLFW_MOD_SHIFT) != 0;
  switch (b.action) {
    case KeyAction::Help:
      help_ = !help_;
      break;
    case KeyAction::Hud:
      hud_ = !hud_;
      if (!projector_) {  // projector mode's HUD is for the session; a choice outside it is kept
        settings_.hud = hud_;
        settings_dirty_ = true;
      }
      break;
    case KeyAction::Ladder:
      help_ = false;
      if (ladder_ && ladder_->visible())
        ladder_->escape();
      else
        start_ladder();
      break;
    case KeyAction::Counters:
      start_counters();
      break;
    case KeyAction::Close:
      if (help_)
        help_ = false;
      else if (ladder_ && ladder_->visible())
        ladder_->escape();
      break;
    case KeyAction::Theme:
      set_theme(theme_ == Theme::Dark ? Theme::Light : Theme::Dark);
      break;
    case KeyAction::Projector:
      set_projector(!projector_);
      break;
    case KeyAction::Fullscreen:
      platform_->set_fullscreen(!platform_->fullscreen());
      break;
    case KeyAction::Screenshot:
      shot_pending_ = true;
      break;
    case KeyAction::ScaleUp:
      set_ui_scale(ui::step_scale(ui_scale(), +1));
      break;
    case KeyAction::ScaleDown:
      set_ui_scale(ui::step_scale(ui_scale(), -1));
      break;
    case KeyAction::ScaleReset:
      set_ui_scale(std::nullopt);
      break;  // the display's content scale
    case KeyAction::Pause:
      playing_ = !playing_;
      break;
    case KeyAction::Step:
      playing_ = false;
      step_once_ = true;
      break;
    case KeyAction::Reset:
      reset_ = true;
      break;
    case KeyAction::Faster:
      steps_per_frame_ = std::min(steps_per_frame_ * 2, 1 << 16);
      break;
    case KeyAction::Slower:
      steps_per_frame_ = std::max(steps_per_frame_ / 2, 1);
      break;
    case KeyAction::NextVariant:
      cycle_variant(shift ? -1 : 1);
      break;
    case KeyAction::ChooseDemo:
      select_demo(static_cast<size_t>(k.key - b.key));
      break;  // says when there is none
    case KeyAction::HideUi:
      ui_visible_ = !ui_visible_;
      break;
    case KeyAction::CodePanel:
      code_panel_ = !code_panel_;
      break;
    case KeyAction::Record:
      toggle_recording();
      break;
    case KeyAction::AB:
      toggle_ab();
      break;
    case KeyAction::LessonNext:
      go_to_step(lesson_->target(presenter::LessonMove::Next));
      break;
    case KeyAction::LessonPrevious:
      go_to_step(lesson_->target(presenter::LessonMove::Previous));
      break;
    case KeyAction::LessonFirst:
      go_to_step(lesson_->target(presenter::LessonMove::First));
      break;
    case KeyAction::LessonLast:
      go_to_step(lesson_->target(presenter::LessonMove::Last));
      break;
    case KeyAction::Demo:
      break;
  }
}

bool App::write_screenshot(const std::filesystem::path& path) {
  platform::Platform& pf = *platform_;
  const int w = pf.framebuffer_width(), h = pf.framebuffer_height();
  const auto rgba = gl::read_pixels_top_down(pf.target_framebuffer(), w, h);
  const std::string err = gl::write_png(path, w, h, rgba.data());
  if (!err.empty()) {
    notify("screenshot failed: " + err);
    return false;
  }
  notify("screenshot saved: " + text::escape(path.string(), 4096));
  return true;
}

Input App::read_input(const Frame& f) {
  // ImGui's view of the mouse (window points) in framebuffer pixels, so demos need not know HiDPI.
  const ImGuiIO& io = ImGui::GetIO();
  Input in;
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  in.mouse_x = io.MousePos.x * sx;
  in.mouse_y = io.MousePos.y * sy;
  in.delta_x = io.MouseDelta.x * sx;
  in.delta_y = io.MouseDelta.y * sy;
  in.wheel = io.MouseWheel;
  for (int b = 0; b < 3; ++b) {
    in.down[b] = io.MouseDown[b];
    in.pressed[b] = ImGui::IsMouseClicked(b);
    in.dragging[b] = ImGui::IsMouseDragging(b, 0.0f);
  }
  in.shift = io.KeyShift;
  in.ctrl = io.KeyCtrl;
  in.alt = io.KeyAlt;
  in.keys = demo_keys_;
  (void)f;
  return in;
}

// F3: the Counters tab to the front, and one step of the current variant measured (of every GPU rung
// when the ladder is shown).
void App::start_counters() {
  if (!attached_) return;
  if (!counters_) counters_ = std::make_unique<presenter::CountersView>();
  counters_tab_select_ = true;
  if (const std::string why = counters_->unavailable(ctx_); !why.empty()) {
    notify("counters unavailable: " + why);
  } else if (ladder_ && ladder_->owns_demo()) {
    notify("counters: the ladder is measuring; press F3 again when it is done");
  } else if (ladder_ && ladder_->visible()) {
    counters_->request_all(*demos_[demo_]);
    notify("counters: measuring one step of every GPU rung, one a frame (Counters tab)");
  } else {
    counters_->request_current(*demos_[demo_]);
    notify("counters: measuring one step of the current variant (Counters tab)");
  }
}

void App::start_ladder() {
  if (!attached_) return;
  stop_ab();  // the ladder measures the app's demo alone
  if (!ladder_) ladder_ = std::make_unique<presenter::LadderView>();
  guarded("ladder", [&] {
    ladder_->start(*demos_[demo_], ctx_);
    ladder_fed_hud_ = false;
  });
}

void App::frame() {
  platform::Platform& pf = *platform_;
  pf.poll_events();
  const double t = now_seconds();
  const double dt = std::max(1e-6, t - last_time_);
  last_time_ = t;
  if (frame_index_ > 0) frame_ms_.push(dt * 1000.0);
  guarded("timings", [&] { timings_.collect(); });

  Frame f;
  f.width = pf.framebuffer_width();
  f.height = pf.framebuffer_height();
  f.dt = dt;
  f.ui_scale = ui_scale();
  // A new scale or theme (or a new HUD size for a resized framebuffer): restyle, rebuild the fonts.
  appearance_.update(f.ui_scale, theme_, f.height, frame_index_ > 0);
  if (std::string p = appearance_.take_problem(); !p.empty()) notify(p);

  ImGuiIO& io = ImGui::GetIO();
  if (pf.glfw_window()) {
    ImGui_ImplGlfw_NewFrame();
  } else {
    io.DisplaySize = ImVec2(static_cast<float>(f.width), static_cast<float>(f.height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = static_cast<float>(dt);
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  hotkeys();
  if (steps_per_frame_ != last_steps_per_frame_) {
    // The window's samples were taken at another number of generations a frame: start afresh.
    timings_.clear();
    last_steps_per_frame_ = steps_per_frame_;
  }
  f.playing = playing_;
  f.steps_per_frame = steps_per_frame_;
  f.step_once = step_once_;
  f.reset = reset_;
  f.mouse_free = !io.WantCaptureMouse;
  f.input = read_input(f);
  f.inset_left = ui_visible_ ? panel_right_ : 0;
  step_once_ = false;
  reset_ = false;

  Demo& d = *demos_[demo_];
  // While the ladder is shown the demo is left alone (its copies are measured): no hook is called,
  // and it resumes where it was when the ladder closes.
  const bool ladder_shown = ladder_ && ladder_->visible();
  // One queued counters measurement a frame at most, between the demo's frames (on copies of its input).
  // (Also over a finished ladder's chart: the demo is idle then, and the probes work on copies.)
  if (attached_ && counters_ && !(ladder_ && ladder_->owns_demo()))
    guarded("counters", [&] { counters_->poll(d, ctx_); });
  if (attached_ && !ladder_shown && ab_)
    compute_ab(f);
  else if (attached_ && !ladder_shown)
    guarded("compute", [&] { d.compute(f); });

  glBindFramebuffer(GL_FRAMEBUFFER, pf.target_framebuffer());
  glViewport(0, 0, f.width, f.height);
  glClearColor(0.04f, 0.03f, 0.03f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  {
    CpuSection draw_time(&timings_, "draw (CPU submit)");
    if (attached_ && !ladder_shown && ab_)
      render_ab(f);
    else if (attached_ && !ladder_shown)
      guarded("render", [&] { d.render(f); });
  }

  const bool capture = shot_pending_;
  const bool show_ui = ui_visible_ && !(capture && !shot_with_ui_);
  if (attached_ && !ladder_shown)
    guarded("hud", [&] { hud_view_.update(t, presenter::hud_input(d, timings_, ctx_)); });
  if (ladder_ && ladder_->done() && !ladder_fed_hud_) {
    ladder_fed_hud_ = true;
    guarded("hud", [&] { feed_hud_from_ladder(); });
  }
  layout_.hud.shown = layout_.help.shown = false;
  record_lesson_layout();
  if (ladder_shown) {
    guarded("ladder", [&] {
      // The chart's text in the app's TrueType faces: the HUD's large font (scaled down, which
      // stays crisp) for sizes above the panel's, the panel's own at or below it.
      const ui::Fonts& fonts = appearance_.fonts();
      const presenter::ChartFonts chart_fonts = [&fonts](presenter::TextFace face, float px) -> ImFont* {
        if (fonts.hud && px > fonts.ui_px * 1.1f) return fonts.hud;
        return face == presenter::TextFace::Mono ? fonts.mono : fonts.ui;
      };
      // The finished chart's per-rung "measure counters" queue into the Counters tab's view.
      if (!counters_) counters_ = std::make_unique<presenter::CountersView>();
      ladder_->draw(
          static_cast<float>(f.width), static_cast<float>(f.height), f.ui_scale, dt * 1000.0,
          [this](std::string line) { notify(std::move(line)); }, chart_fonts,
          theme_ == Theme::Light ? presenter::ChartTheme::light() : presenter::ChartTheme::dark(),
          counters_.get());
    });
  } else {
    if (show_ui) draw_ui(f);
    if (attached_) draw_caption();
    lesson_band_ = lesson_top_ = 0;
    if (lesson_) draw_lesson_overlay(f);
    layout_.code = {};
    if (attached_ && code_panel_) guarded("code panel", [&] { draw_code(f); });
    if (attached_ && hud_) draw_hud(f);
    layout_.ab = {};
    if (attached_ && ab_) guarded("A/B", [&] { draw_ab_overlay(f); });
    if (help_) draw_help();
  }
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

  if (capture) {
    shot_pending_ = false;
    try {
      write_screenshot(gl::unique_screenshot_path(shot_dir_, "gpulab-" + std::string(d.name())));
    } catch (const std::exception& e) {
      notify(std::string("screenshot failed: ") + e.what());
    }
  }
  record_frame();
  pf.swap_buffers();
  ++frame_index_;
  if (!pf.fullscreen() && io.DisplaySize.x >= kMinWindowEdge && io.DisplaySize.y >= kMinWindowEdge) {
    const int w = std::min(static_cast<int>(io.DisplaySize.x), kMaxWindowEdge);
    const int h = std::min(static_cast<int>(io.DisplaySize.y), kMaxWindowEdge);
    if (w != settings_.window_width || h != settings_.window_height) {
      settings_.window_width = w;  // saved at exit (a drag would otherwise write every second)
      settings_.window_height = h;
    }
  }
  save_settings_if_due(false);
}

int App::run() {
  std::string error;
  if (!init(&error)) {
    std::fprintf(stderr, "gpulab: %s\n", error.c_str());
    return 1;
  }
  platform::Platform& pf = *platform_;
  if (options_.mode == Options::Mode::Ladder) {
    if (!attached_) return 1;  // attach_current has said why
    return presenter::run_ladder_command(*demos_[demo_], ctx_, options_);
  }
  if (options_.mode == Options::Mode::Counters) {
    if (!attached_) return 1;  // attach_current has said why
    return presenter::run_counters_command(*demos_[demo_], ctx_, options_);
  }
  if (attached_ && demos_[demo_]->batch_requested()) {
    const std::string err = demos_[demo_]->run_batch(options_);
    if (!err.empty()) {
      std::fprintf(stderr, "gpulab: %s\n", err.c_str());
      return 1;
    }
    if (options_.screenshot.empty()) return 0;
    playing_ = false;  // the screenshot shows the state that was saved
  }
  if (options_.start_ladder) start_ladder();
  if (options_.headless) {
    shot_with_ui_ = options_.screenshot_ui;
    // With --start-ladder the frames go on until the ladder is measured, then --frames more.
    // Paced as a 60 Hz display would pace them, so that the frames do not take the GPU from the
    // measurements.
    while (ladder_ && ladder_->owns_demo()) {
      frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    if (ladder_ && ladder_->visible())
      std::fprintf(stderr, "gpulab: ladder: %d frames while measuring, the slowest %.1f ms\n",
                   ladder_->frames(), ladder_->worst_frame_ms());
    if (options_.start_counters) {
      // With --start-counters the frames go on (paced at 60 Hz) until the measurement is done and the
      // meters hold a second of samples, or their status says why they cannot (at most 10 s).
      start_counters();
      const auto t0 = std::chrono::steady_clock::now();
      while (counters_ && counters_->unavailable(ctx_).empty() &&
             std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10)) {
        frame();
        if (!counters_->busy() && (counters_->meters().span_s() >= 1.0 || counters_->meters_failed())) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
      }
      if (counters_ && !counters_->unavailable(ctx_).empty()) {
        std::fprintf(stderr, "gpulab: counters: 0 measured: %s\n", counters_->unavailable(ctx_).c_str());
      } else if (counters_) {
        size_t measured = 0;
        for (const presenter::CounterRow& r : counters_->rows()) measured += r.measured() ? 1 : 0;
        const std::string st = counters_->meters_status();
        if (st.empty())
          std::fprintf(stderr, "gpulab: counters: %zu measured; meters: %zu samples over %.1f s\n", measured,
                       counters_->meters().size(), counters_->meters().span_s());
        else
          std::fprintf(stderr, "gpulab: counters: %zu measured; meters: %s\n", measured, st.c_str());
      }
    }
    const int frames = std::max(1, options_.frames);
    if (!options_.record.empty()) {
      recorder_ = std::make_unique<presenter::Recorder>();
      const std::string err =
          recorder_->start(options_.record, pf.framebuffer_width(), pf.framebuffer_height(), 60, true);
      if (!err.empty()) {
        std::fprintf(stderr, "gpulab: --record: %s\n", err.c_str());
        return 1;
      }
      notify(recorder_->message());
    }
    // Many frames, or large ones, take long: said up front as the batch runs say it (core/batch.h).
    const double frames_start = now_seconds();
    bool estimated = false;
    for (int i = 0; i < frames; ++i) {
      if (i == frames - 1 && !options_.screenshot.empty()) {
        // The last frame: render it with or without the UI as asked, then write the PNG.
        ui_visible_ = options_.screenshot_ui;
      }
      frame();
      if (const double elapsed = now_seconds() - frames_start; !estimated && elapsed >= 0.2) {
        estimated = true;
        if (const std::string line = batch_estimate(frames, i + 1, elapsed, "frames"); !line.empty())
          std::fprintf(stderr, "%s\n", line.c_str());
      }
    }
    if (recorder_ && recorder_->recording()) {
      const std::string line = recorder_->stop();
      notify(line);
      if (line.rfind("recording failed", 0) == 0) return 1;
    }
    if (!options_.screenshot.empty()) {
      glFinish();
      if (!write_screenshot(options_.screenshot)) return 1;
    }
    if (!options_.layout_report.empty() && !write_layout_report(options_.layout_report)) return 1;
    const auto rows = demos_[demo_]->throughput();
    const RollingSeries* step = rows.empty() ? nullptr : timings_.find(rows.front().section);
    std::fprintf(stderr, "gpulab: %d frames, %s; step median %.3f ms, frame median %.3f ms\n", frames,
                 demos_[demo_]->caption().c_str(), step ? step->median() : 0.0, frame_ms_.median());
    return had_error_ ? 1 : 0;
  }
  while (!pf.should_close()) frame();
  save_settings_if_due(true);
  return 0;
}

int gpulab_main(int argc, const char* const* argv) {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  std::vector<Demo*> views;
  for (const auto& d : demos) views.push_back(d.get());
  ParseResult r = parse_command_line(argc, argv, views);
  if (!r.options) {
    if (r.exit_code == 2)
      std::fprintf(stderr, "gpulab: %s\n\n%s", r.error.c_str(), usage(views).c_str());
    else
      std::fprintf(stderr, "gpulab: %s\n", r.error.c_str());
    return r.exit_code;
  }
  Options& o = *r.options;
  switch (o.mode) {
    case Options::Mode::Help:
      std::fputs(usage(views).c_str(), stdout);
      return 0;
    case Options::Mode::List: {
      const CudaStatus cs = cuda_status();
      for (const auto& d : demos) {
        std::printf("%s — %s\n", std::string(d->name()).c_str(), std::string(d->title()).c_str());
        const std::vector<Stage> stages = d->stages();
        for (const Stage& st : stages) {
          if (stages.size() > 1)
            std::printf("  stage %s (%s):\n", std::string(st.id).c_str(), std::string(st.title).c_str());
          for (const auto& v : st.variants) {
            std::printf("  %s%-22s %s%s\n", stages.size() > 1 ? "  " : "", std::string(v.id).c_str(),
                        std::string(v.lesson).c_str(), v.needs_cuda && !cs.available ? "  [needs CUDA]" : "");
          }
        }
      }
      return 0;
    }
    case Options::Mode::CheckDisplay: {
      std::string why;
      if (platform::display_available(&why)) return 0;
      std::fprintf(stderr, "%s\n", why.c_str());
      return 1;
    }
    case Options::Mode::Bench:
      for (size_t i = 0; i < demos.size(); ++i)
        if (demos[i]->name() == o.demo && i < r.params.size()) return run_bench(o, std::move(r.params[i]));
      return run_bench(o);
    case Options::Mode::Ladder:
    case Options::Mode::Counters:
    case Options::Mode::Run:
      break;
  }
  App app(std::move(o), std::move(demos), std::move(r.params));
  return app.run();
}

}  // namespace gpulab
