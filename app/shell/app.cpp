// The application shell: platform, ImGui, the frame loop, hotkeys, screenshots, and the registry of
// the presenter's elements (presenter/elements.h), called through their hooks.
#include "shell/app.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "common/cuda_probe.h"
#include "common/device_health.h"
#include "common/error.h"
#include "common/text.h"
#include "core/batch.h"
#include "core/files.h"
#include "core/keymap.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "image/image.h"
#include "platform/platform.h"
#include "presenter/counters_command.h"
#include "presenter/counters_view.h"
#include "presenter/elements.h"
#include "presenter/ladder_command.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson_player.h"
#include "presenter/recorder.h"
#include "shell/bench_driver.h"
#include "shell/presenter_window.h"
#include "shell/session.h"
#include "ui/panels.h"

namespace gpulab {

namespace {
// Key presses are queued from GLFW's callback (ImGui chains to it) rather than read from ImGui's key
// state: a tap that starts and ends between two slow frames (a big grid on the CPU) still counts.
std::vector<App::KeyPress>* g_key_queue = nullptr;
void queue_key(GLFWwindow*, int key, int, int action, int mods) {
  if (g_key_queue && (action == GLFW_PRESS || action == GLFW_REPEAT))
    g_key_queue->push_back({key, mods, action == GLFW_REPEAT});
}
}  // namespace

// The presenter's window sends its key presses to the same queue: a clicker works whichever window
// has the focus.
PresenterWindow::KeyCallback app_key_callback() { return queue_key; }

namespace {

// SIGINT / SIGTERM in a window run: the loop ends after the frame, the settings are saved.
volatile std::sig_atomic_t g_stop = 0;
void request_stop(int) { g_stop = 1; }

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

App::App(Options options, std::vector<std::unique_ptr<Demo>> demos, std::vector<Params> params)
    : options_(std::move(options)) {
  view_.vsync = options_.vsync;
  view_.caption = options_.caption;
  session_ = std::make_unique<ShellSession>(options_, std::move(demos), std::move(params));
  elements_ = presenter::make_elements();
  session_->set_elements(&elements_);
}

App::~App() { shutdown(); }

bool App::init(std::string* error) {
  ShellSession& s = *session_;
  // Backend: CUDA when a device is there (and --cpu was not given), else the CPU references.
  s.init_backend();
  const Context& ctx = s.context();
  // The backend as a chip at the top of the panel, in a few words; the reason in full is in the Device
  // tab (said there once, not again in a banner).
  if (ctx.cuda) {
    backend_banner_ = "GPU · CUDA";
  } else {
    const CudaStatus cs = cuda_status();  // (the probe's answer again: cheap)
    backend_banner_ = "CPU · " + (options_.cpu               ? std::string("--cpu")
                                  : !cs.short_reason.empty() ? cs.short_reason
                                                             : std::string("no GPU"));
  }

  load_settings_for_run();
  // What SIGKILL or a crash left where F9 records (a signal's handler removes them otherwise).
  for (const std::string& line : presenter::recover_leftovers("recordings"))
    std::fprintf(stderr, "gpulab: %s\n", text::escape(line, 4096).c_str());

  // Platform.
  std::string why;
  if (options_.headless) {
    platform::HeadlessOptions ho;
    ho.width = options_.width;
    ho.height = options_.height;
    ho.cuda_device = ctx.cuda ? ctx.cuda_device : -1;
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
    wo.vsync = view_.vsync;
    platform_ = platform::create_window(wo, &why);
    if (!platform_) {
      *error = "cannot open a window: " + why + " (try --headless)";
      return false;
    }
  }
  platform::Platform& pf = *platform_;
  if (options_.hud) element<presenter::HudElement>()->set_on(true);
  element<presenter::HelpElement>()->set_on(options_.show_keys);
  if (options_.blank) view_.blank = 1;
  std::fprintf(stderr, "gpulab: %s, %s, %s\n", pf.info().api.c_str(), pf.info().gl_renderer.c_str(),
               pf.info().gl_version.c_str());
  if (!pf.info().egl_device.empty()) std::fprintf(stderr, "gpulab: %s\n", pf.info().egl_device.c_str());
  gl::enable_debug_output();  // debug builds ask for a debug context; elsewhere this does nothing
  options_.gl_max_texture = gl::max_texture_size();  // (configure checks --image against it)
  s.init_display(&pf);

  // ImGui, with the GLFW backend for a window; headless feeds display size and time itself.
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_ = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  // Style and fonts for the UI scale: set before every frame by the Appearance (frame()).
  appearance_.update(ui_scale(), view_.theme, pf.framebuffer_height(), false);
  if (pf.glfw_window()) {
    g_key_queue = &keys_.queue;
    glfwSetKeyCallback(pf.glfw_window(), queue_key);  // before ImGui's, which chains to it
    ImGui_ImplGlfw_InitForOpenGL(pf.glfw_window(), true);
  }
  ImGui_ImplOpenGL3_Init("#version 450 core");
  // After ImGui: projector mode may open the presenter's window, with an ImGui context of its own.
  if (options_.projector) set_projector(true);

  pf.on_drop([this](std::vector<std::string> paths) {
    for (const auto& p : paths) {
      std::string err;
      session_->guarded("open", [&] {
        // A lesson (.toml) opens as a lesson, whatever the demo: never read as a pattern or image.
        if (is_lesson_path(p)) {
          if (element<presenter::LessonElement>()->open_file(*session_, p, 0, &err))
            session_->notify("opened the lesson " + text::escape(p));
          else
            session_->notify(err);
          return;
        }
        Demo* d = session_->demo();
        if (!d) return;
        if (d->open_file(p, &err))
          session_->notify("opened " + p);
        else
          session_->notify(err);
      });
    }
  });

  Context& cm = s.context_mut();
  cm.assets = std::filesystem::path(GPULAB_SOURCE_DIR) / "assets";
  {
    // Prefer the copy next to the binary (an installed or moved build).
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec && std::filesystem::exists(exe.parent_path() / "assets"))
      cm.assets = exe.parent_path() / "assets";
  }

  if (std::string bad = s.choose_for_run(options_.demo); !bad.empty()) {
    *error = bad;
    return false;
  }
  const Demo& d = s.demo_at(s.index());
  pf.set_title("gpulab - " + std::string(d.title()));
  // The demo the settings named, or the command line's (which wins and is not saved): the settings
  // learn a demo only when the user picks one (select_demo).
  // Without a window nobody can pick another demo: a demo that cannot start ends a headless run.
  if (!s.attach_current() && options_.headless) {
    *error = s.attach_error();
    return false;
  }
  if (!options_.results.empty()) {
    // Recorded results that cannot be read end the run (they were asked for by name).
    std::string why_not;
    std::optional<RecordedResults> r = load_recorded_results(options_.results, &why_not);
    if (!r) {
      *error = why_not;
      return false;
    }
    s.set_recorded(std::move(r));
  }
  if (!options_.lesson.empty() && !options_.lesson_check) {  // (--check opens it itself, step by step)
    // A lesson that cannot be read ends a headless run; a window keeps what it has and says why.
    std::string why_not;
    if (!element<presenter::LessonElement>()->open_file(
            s, options_.lesson, options_.lesson_step > 0 ? options_.lesson_step - 1 : 0, &why_not)) {
      if (options_.headless) {
        *error = why_not;
        return false;
      }
      s.notify(why_not);
    }
  }
  clock_.last_time = clock_.started_at = now_seconds();
  return true;
}

void App::shutdown() {
  // The elements first: the ladder cancels and joins a run before the demo it measures goes, the B
  // half and the recorder's pixel buffers go while the GL context is there.
  if (auto* r = element<presenter::RecorderElement>(); r && r->recording()) {
    try {
      session_->notify(r->stop());
    } catch (...) {
    }
  }
  presenter_.reset();  // its ImGui context and window, while the first context is there
  if (session_) session_->set_elements(nullptr);
  elements_.clear();
  if (session_) session_->detach();
  session_.reset();
  g_key_queue = nullptr;
  if (imgui_) {
    ImGui_ImplOpenGL3_Shutdown();
    if (platform_ && platform_->glfw_window()) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    imgui_ = false;
  }
  drawn_.reset();  // while its GL context is there
  platform_.reset();
}

void App::select_demo(size_t index) {
  const size_t before = session_->index();
  session_->select(index);
  if (session_->index() != before && index < session_->demo_count()) {
    store_.settings.last_demo = std::string(session_->demo_at(index).name());
    store_.dirty = true;
  }
}

void App::hotkeys() {
  std::vector<KeyPress> keys;
  keys.swap(keys_.queue);
  keys_.demo.clear();
  if (ImGui::GetIO().WantCaptureKeyboard) return;  // typing into a text field
  // While the ladder is shown the demo belongs to it: only the keys marked while_ladder act (V, R,
  // 1-9... would reach into the demo its worker thread is measuring), and none reaches the demo.
  const auto* ladder = element<presenter::LadderElement>();
  const bool ladder_shown = ladder && ladder->visible();
  const auto* lesson = element<presenter::LessonElement>();
  for (const KeyPress& k : keys) {
    const KeyBinding* b =
        find_shell_key(k.key, (k.mods & GLFW_MOD_CONTROL) != 0, lesson != nullptr && lesson->open());
    if (!b) {
      if ((k.key == GLFW_KEY_PAGE_DOWN || k.key == GLFW_KEY_PAGE_UP) && !k.repeat)
        session_->notify("no lesson is open: the Lesson tab opens one (PageDown / PageUp step through it)");
      if (!ladder_shown && !k.repeat) keys_.demo.push_back(k.key);  // the demo's (e.g. F: fit the view)
      continue;
    }
    if ((ladder_shown && !b->while_ladder) || (k.repeat && !b->repeats)) continue;
    key_action(*b, k);
  }
}

void App::key_action(const KeyBinding& b, const KeyPress& k) {
  const bool shift = (k.mods & GLFW_MOD_SHIFT) != 0;
  presenter::Playback& pb = session_->playback();
  switch (b.action) {
    case KeyAction::Theme:
      set_theme(view_.theme == Theme::Dark ? Theme::Light : Theme::Dark);
      return;
    case KeyAction::Projector:
      set_projector(!view_.projector);
      return;
    case KeyAction::Fullscreen:
      platform_->set_fullscreen(!platform_->fullscreen());
      return;
    case KeyAction::Screenshot:
      shots_.pending = true;
      return;
    case KeyAction::ScaleUp:
      set_ui_scale(ui::step_scale(ui_scale(), +1));
      return;
    case KeyAction::ScaleDown:
      set_ui_scale(ui::step_scale(ui_scale(), -1));
      return;
    case KeyAction::ScaleReset:
      set_ui_scale(std::nullopt);  // the display's content scale
      return;
    case KeyAction::Pause:
      pb.playing = !pb.playing;
      return;
    case KeyAction::Step:
      pb.playing = false;
      pb.step_once = true;
      return;
    case KeyAction::Reset:
      pb.reset = true;
      return;
    case KeyAction::Faster:
      pb.steps_per_frame = std::min(pb.steps_per_frame * 2, 1 << 16);
      return;
    case KeyAction::Slower:
      pb.steps_per_frame = std::max(pb.steps_per_frame / 2, 1);
      return;
    case KeyAction::NextVariant:
      session_->cycle_variant(shift ? -1 : 1);
      return;
    case KeyAction::ChooseDemo:
      select_demo(static_cast<size_t>(k.key - b.key));  // says when there is none
      return;
    case KeyAction::HideUi:
      view_.ui_visible = !view_.ui_visible;
      return;
    case KeyAction::Blank:
    case KeyAction::White: {
      const int want = b.action == KeyAction::Blank ? 1 : 2;
      view_.blank = view_.blank == want ? 0 : want;
      return;
    }
    default:
      break;
  }
  // A presenter action: the first element that takes it.
  const bool hud_before = element<presenter::HudElement>()->on();
  for (auto& e : elements_)
    if (e->key(*session_, b.action, k)) break;
  const bool hud = element<presenter::HudElement>()->on();
  if (hud != hud_before &&
      !view_.projector) {  // projector mode's HUD is for the session; a choice outside it is kept
    store_.settings.hud = hud;
    store_.dirty = true;
  }
}

bool App::write_screenshot(const std::filesystem::path& path) {
  platform::Platform& pf = *platform_;
  const int w = pf.framebuffer_width(), h = pf.framebuffer_height();
  const auto rgba = gl::read_pixels_top_down(pf.target_framebuffer(), w, h);
  const std::string err = gl::write_png(path, w, h, rgba.data());
  if (!err.empty()) {
    session_->notify("screenshot failed: " + err);
    return false;
  }
  session_->notify("screenshot saved: " + text::escape(path.string(), 4096));
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
  in.keys = keys_.demo;
  (void)f;
  return in;
}

presenter::ScreenLayout App::lay_out(const Frame& f) {
  const ImGuiIO& io = ImGui::GetIO();
  presenter::LayoutInput in;
  in.width = io.DisplaySize.x;
  in.height = io.DisplaySize.y;
  in.ui_scale = f.ui_scale;
  in.projector = view_.projector.has_value();
  in.panel = view_.ui_visible && !presenter_;  // with a presenter's window the panel is there
  in.compact = view_.compact;
  // Projector mode folds the compact panel to a strip while the mouse rests (3 s).
  in.collapsed = view_.compact && session_->now() - view_.mouse_moved_at > 3.0;
  in.panel_w = view_.compact ? (view_.compact_w > 0 ? view_.compact_w : 300 * f.ui_scale) : 500 * f.ui_scale;
  in.caption = view_.caption && session_->demo() != nullptr;
  in.caption_h = caption_px() + 12.0f;
  for (auto& e : elements_) e->wants(*session_, in);
  return presenter::layout_screen(in);
}

void App::gpu_fault_hooks() {
  // Tests only: GPULAB_TEST_GPU_FAULT="N" makes frame N launch a kernel that faults (an illegal
  // address), as a wrong index in a kernel would.
  static const int at = [] {
    const char* e = std::getenv("GPULAB_TEST_GPU_FAULT");
    return e ? std::atoi(e) : -1;
  }();
  ShellSession& s = *session_;
  if (at > 0 && clock_.frame_index == at && s.context().cuda) inject_cuda_fault(s.context().stream);
}

void App::frame() {
  platform::Platform& pf = *platform_;
  ShellSession& s = *session_;
  pf.poll_events();
  const double t = now_seconds();
  const double dt = std::max(1e-6, t - clock_.last_time);
  clock_.last_time = t;
  if (clock_.frame_index > 0) clock_.frame_ms.push(dt * 1000.0);
  gpu_fault_hooks();
  s.guarded("timings", [&] { s.timings().collect(); });
  // A GPU fault the last frame noticed: the demo goes on on the CPU from this frame.
  if (s.gpu_failed()) {
    drawn_.reset();
    s.fall_back_to_cpu();
  }

  Frame f;
  f.width = pf.framebuffer_width();
  f.height = pf.framebuffer_height();
  f.dt = dt;
  // A new scale or theme (or a new HUD size for a resized framebuffer): restyle, rebuild the fonts.
  // The scale in use is the one asked for held to the framebuffer's height (ui::fit_scale).
  appearance_.update(ui_scale(), view_.theme, f.height, clock_.frame_index > 0);
  f.ui_scale = appearance_.scale();
  if (std::string p = appearance_.take_problem(); !p.empty()) s.notify(p);
  // The notes are never on a projected screen: with a presenter's window they are there.
  s.set_look({&appearance_.fonts(), view_.theme == Theme::Light, view_.projector.has_value(), f.ui_scale,
              !view_.projector.has_value()});

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
  if (io.MouseDelta.x != 0 || io.MouseDelta.y != 0) view_.mouse_moved_at = t;
  hotkeys();
  presenter::Playback& pb = s.playback();
  if (pb.steps_per_frame != clock_.last_steps_per_frame) {
    // The window's samples were taken at another number of generations a frame: start afresh.
    s.timings().clear();
    clock_.last_steps_per_frame = pb.steps_per_frame;
  }
  f.playing = pb.playing;
  f.steps_per_frame = pb.steps_per_frame;
  f.step_once = pb.step_once;
  f.reset = pb.reset;
  f.mouse_free = !io.WantCaptureMouse;
  f.input = read_input(f);
  pb.step_once = false;
  pb.reset = false;

  // The elements' frame first (the HUD's reading, the counters' queue, the lesson's step), so that
  // the regions are laid out for what they will draw; the demo is fitted into the view.
  for (auto& e : elements_) e->frame(s, f);
  if (!store_.settings.hint_used && (element<presenter::HelpElement>()->on() || view_.projector)) {
    // F1 or F7 used: the first start's hint goes (the Lesson tab: app_ui.cpp).
    store_.settings.hint_used = true;
    store_.dirty = true;
  }
  layout_ = lay_out(f);
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  f.view = {static_cast<int>(std::lround(layout_.view.x0 * sx)),
            static_cast<int>(std::lround(layout_.view.y0 * sy)),
            std::max(1, static_cast<int>(std::lround(layout_.view.width() * sx))),
            std::max(1, static_cast<int>(std::lround(layout_.view.height() * sy)))};
  // While an element holds the demo (the ladder measures its copies) no demo hook is called, and the
  // demo resumes where it was when the element lets go.
  presenter::Element* holder = nullptr;
  bool step_held = false;
  for (auto& e : elements_) {
    if (e->holds_demo()) holder = e.get();
    // The live step waits (a CPU baseline is timed alone): the demo computes as if paused, its
    // picture kept up to date.
    if (e->holds_step()) {
      f.playing = false;
      f.step_once = false;
      step_held = true;
    }
  }
  Demo* d = s.demo();
  if (d && !holder) {
    // On the GPU: the last frame's drawing done first, so that the step runs, and is timed, alone (GL
    // and CUDA share the GPU in time slices; the HUD's time otherwise includes the drawing's).
    if (s.context().cuda && !options_.overlap_drawing) drawn_.wait();
    bool done = false;
    for (auto& e : elements_)
      if ((done = e->compute(s, f))) break;
    if (!done) s.guarded("compute", [&] { d->compute(f); });
  }
  s.check_gpu();

  const GLuint target = pf.target_framebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, f.width, f.height);
  glClearColor(0.04f, 0.03f, 0.03f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  // A blank (B / W) draws nothing of the demo: its picture and the marks it draws over it.
  if (d && !holder && !view_.blank) {
    CpuSection draw_time(&s.timings(), "draw (CPU submit)");
    bool done = false;
    for (auto& e : elements_)
      if ((done = e->render(s, f, target))) break;
    if (!done) {
      // The demo draws into the view region only.
      glEnable(GL_SCISSOR_TEST);
      glScissor(f.view.x, f.height - (f.view.y + f.view.h), f.view.w, f.view.h);
      s.guarded("render", [&] { d->render(f); });
      glDisable(GL_SCISSOR_TEST);
      glViewport(0, 0, f.width, f.height);
    }
  }

  const bool capture = shots_.pending;
  const bool show_ui = view_.ui_visible && !(capture && !shots_.with_ui);
  report_.screen = layout_;
  report_.blanked = view_.blank != 0;
  // The layers (presenter::Element::Layer): the overlays, then a modal, then the notices. A blank
  // draws none of them; a modal (the keys) hides the overlays, so that nothing is over it.
  using Layer = presenter::Element::Layer;
  auto draw_layer = [&](Layer layer) {
    for (auto& e : elements_)
      if (e->layer() == layer && (layer != Layer::Modal || e->modal_shown())) e->draw(s, layout_);
  };
  bool modal = false;
  for (auto& e : elements_) {
    e->laid_out(s, layout_);
    modal = modal || (e->layer() == Layer::Modal && e->modal_shown());
  }
  if (view_.blank) {
    // B / W: the whole window one colour (a projector's blank).
    const float v = view_.blank == 2 ? 1.0f : 0.0f;
    glClearColor(v, v, v, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
  } else if (holder) {
    holder->draw(s, layout_);
    draw_layer(Layer::Modal);
  } else {
    if (show_ui && !layout_.panel.empty()) draw_ui(f, layout_.panel);
    if (!modal) {
      if (d && !layout_.caption.empty()) draw_caption(layout_.caption);
      draw_layer(Layer::Overlay);
    }
    draw_layer(Layer::Modal);
  }
  // The toasts are part of the UI: hidden with it (H) and left out of a screenshot without it; a
  // blank is nothing but its colour.
  if (show_ui && !view_.blank) draw_layer(Layer::Notice);
  for (auto& e : elements_) e->report(report_);
  report_.running = presenter::running_variants(d, element<presenter::AbElement>());
  ImGui::Render();
  ImDrawData* drawn = ImGui::GetDrawData();
  ImGui_ImplOpenGL3_RenderDrawData(drawn);
  // The frame but for the notices: what a clip reads. Then the notices over it.
  for (auto& e : elements_) e->before_notices(s, target, f.width, f.height, pf.headless());
  for (auto& e : elements_)
    if (const ImDrawList* above = e->drawn_above(); above && drawn) {
      ImDrawList* lists[] = {const_cast<ImDrawList*>(above)};
      ImDrawData one = *drawn;
      one.CmdLists = lists;
      one.CmdListsCount = 1;
      one.TotalVtxCount = above->VtxBuffer.Size;
      one.TotalIdxCount = above->IdxBuffer.Size;
      ImGui_ImplOpenGL3_RenderDrawData(&one);
    }
  drawn_.place();

  if (capture) {
    shots_.pending = false;
    try {
      write_screenshot(gl::unique_screenshot_path(shots_.dir, "gpulab-" + s.setup().demo));
    } catch (const std::exception& e) {
      s.notify(std::string("screenshot failed: ") + e.what());
    }
  }
  for (auto& e : elements_) e->after_frame(s, target, f.width, f.height, pf.headless());
  pf.swap_buffers();
  if (presenter_ && presenter_->should_close()) presenter_.reset();
  if (presenter_) {
    presenter_->frame(
        ui_scale(), view_.theme, dt, [&](float w, float h) { draw_presenter(f, w, h); }, pf);
  } else {
    report_.presenter = {};
  }
  ++clock_.frame_index;
  if (!pf.fullscreen() && io.DisplaySize.x >= kMinWindowEdge && io.DisplaySize.y >= kMinWindowEdge) {
    const int w = std::min(static_cast<int>(io.DisplaySize.x), kMaxWindowEdge);
    const int h = std::min(static_cast<int>(io.DisplaySize.y), kMaxWindowEdge);
    if (options_.size_given && clock_.frame_index <= 1) store_.cli_size = std::pair{w, h};
    const bool as_given = store_.cli_size && *store_.cli_size == std::pair{w, h};
    if (!as_given) store_.cli_size.reset();  // resized by the user: from now on the window's own size
    if (!as_given && (w != store_.settings.window_width || h != store_.settings.window_height)) {
      store_.settings.window_width = w;  // saved at exit (a drag would otherwise write every second)
      store_.settings.window_height = h;
    }
  }
  save_settings_if_due(false);
  // While the step is held the picture does not change: 10 frames a second leave the cores (a
  // software GL draws on them) to the baseline being timed.
  if (step_held) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

int App::run() {
  std::string error;
  if (!init(&error)) {
    std::fprintf(stderr, "gpulab: %s\n", error.c_str());
    return 1;
  }
  ShellSession& s = *session_;
  if (options_.lesson_check) return run_lesson_check();
  if (options_.mode == Options::Mode::Ladder) {
    if (!s.demo()) return 1;  // attach_current has said why
    return presenter::run_ladder_command(*s.demo(), s.context(), options_);
  }
  if (options_.mode == Options::Mode::Counters) {
    if (!s.demo()) return 1;  // attach_current has said why
    return presenter::run_counters_command(*s.demo(), s.context(), options_);
  }
  if (s.demo() && s.demo()->batch_requested()) {
    const std::string err = s.demo()->run_batch(options_);
    if (!err.empty()) {
      std::fprintf(stderr, "gpulab: %s\n", err.c_str());
      return 1;
    }
    if (options_.screenshot.empty()) return 0;
    s.playback().playing = false;  // the screenshot shows the state that was saved
  }
  if (options_.start_ladder) element<presenter::LadderElement>()->start(s);
  if (options_.start_counters) element<presenter::CountersElement>()->start_when_free();
  if (options_.headless) return run_headless();
  platform::Platform& pf = *platform_;
  g_stop = 0;
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  while (!pf.should_close() && !g_stop) frame();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  save_settings_if_due(true);
  // What the last frame showed, for the window tests (they close the window, then read it).
  if (!options_.layout_report.empty() && !write_layout_report(options_.layout_report)) return 1;
  return 0;
}

void App::draw_presenter(Frame& f, float width, float height) {
  ShellSession& s = *session_;
  presenter::Look look = s.look();
  look.notes = true;
  s.set_look(look);
  presenter::LayoutReport::Presenter& rp = report_.presenter;
  rp = {};
  rp.shown = true;
  rp.monitor = presenter_->monitor();
  // The left column: the clock, the step, its notes and the next step, in large type.
  const float left = std::floor(width * 0.42f);
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(left, height), ImGuiCond_Always);
  ImGui::Begin("Presenter", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  ImGui::PushTextWrapPos(0.0f);
  const auto* lesson = element<presenter::LessonElement>();
  const presenter::LessonPlayer* player = lesson ? lesson->player() : nullptr;
  const int since = static_cast<int>(s.now() - (player ? lesson->opened_at() : clock_.started_at));
  char clock[32];
  std::snprintf(clock, sizeof clock, "%d:%02d", since / 60, since % 60);
  rp.clock = clock;
  ImGui::SetWindowFontScale(1.6f);
  ImGui::Text("%s", clock);
  ImGui::SetWindowFontScale(1.0f);
  ImGui::TextDisabled("%s", player ? "since the lesson opened" : "since gpulab started");
  if (view_.blank) {  // the class sees nothing: said where the presenter looks
    rp.blanked = true;
    ImGui::TextColored(ImVec4(1.0f, 0.72f, 0.2f, 1.0f), "projector blanked (%s again shows it)",
                       view_.blank == 2 ? "W" : "B");
  }
  ImGui::Separator();
  if (player) {
    ImGui::Text("%s", player->lesson().title.c_str());
    ImGui::TextDisabled("%s", player->progress().c_str());
    if (const presenter::LessonStep* st = player->step()) {
      ImGui::SetWindowFontScale(1.25f);
      ImGui::TextWrapped("%s", st->notes.empty() ? "(no notes for this step)" : st->notes.c_str());
      ImGui::SetWindowFontScale(1.0f);
      rp.notes_shown = !st->notes.empty();
    }
    const int next = player->current() + 1;
    if (next < player->size()) {
      rp.next = player->lesson().steps[static_cast<size_t>(next)].title;
      ImGui::Separator();
      ImGui::TextDisabled("next (PageDown):");
      ImGui::TextWrapped("%s", rp.next.c_str());
    }
  } else {
    ImGui::TextWrapped(
        "No lesson is open: the Lesson tab opens one; PageDown / PageUp then step through it.");
  }
  // The pointer pad at the column's foot: the projected view in small. With the spotlight on (Ctrl+P),
  // the mouse over the pad points on the class's screen.
  auto* pointer = element<presenter::PointerElement>();
  const presenter::Rect& view = layout_.view;
  const float pad_w = std::max(ImGui::GetContentRegionAvail().x, 40.0f);
  const float aspect = view.width() > 0 ? view.height() / view.width() : 9.0f / 16.0f;
  const float pad_h = std::clamp(pad_w * aspect, 40.0f, std::max(40.0f, height * 0.35f));
  const float foot = height - ImGui::GetStyle().WindowPadding.y - pad_h;
  const float label = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  if (ImGui::GetCursorPosY() < foot - label) ImGui::SetCursorPosY(foot - label);
  ImGui::Separator();
  ImGui::TextDisabled("%s", pointer->on() ? "spotlight: point on the pad below"
                                          : "Ctrl+P: a spotlight, pointed from the pad below");
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("pointer pad", ImVec2(pad_w, pad_h));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + pad_w, p0.y + pad_h);
  dl->AddRectFilled(p0, p1, s.look().light ? IM_COL32(225, 225, 225, 255) : IM_COL32(40, 40, 40, 255));
  dl->AddRect(p0, p1, IM_COL32(128, 128, 128, 255));
  if (pointer->on() && ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    pointer->point_at((m.x - p0.x) / pad_w, (m.y - p0.y) / pad_h);
  }
  if (const auto spot = pointer->spot())
    dl->AddCircleFilled(ImVec2(p0.x + spot->first * pad_w, p0.y + spot->second * pad_h), 6.0f,
                        IM_COL32(220, 30, 30, 255));
  rp.pad_x0 = p0.x;
  rp.pad_y0 = p0.y;
  rp.pad_x1 = p1.x;
  rp.pad_y1 = p1.y;
  ImGui::PopTextWrapPos();
  ImGui::End();
  // The right: the whole panel (the projected window has none).
  const bool compact = view_.compact;
  view_.compact = false;
  draw_ui(f, presenter::Rect{left, 0, width, height});
  view_.compact = compact;
  look.notes = false;
  s.set_look(look);
}

int App::run_headless() {
  ShellSession& s = *session_;
  platform::Platform& pf = *platform_;
  shots_.with_ui = options_.screenshot_ui;
  // Before the --frames: frames, paced as a 60 Hz display paces them (so that they do not take the GPU
  // from what is measured), while an element is busy (element.h: the ladder, the counters, the HUD's
  // baseline); then each says its line.
  auto busy = [&] {
    for (const auto& e : elements_)
      if (e->headless_busy(s)) return true;
    return false;
  };
  while (busy()) {
    frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
  for (const auto& e : elements_) e->headless_done(s);
  const int frames = std::max(1, options_.frames);
  auto* recorder = element<presenter::RecorderElement>();
  if (!options_.record.empty()) {
    // A clip of the view (the default): the panel is left out of its frames, so the view fills them.
    std::filesystem::path record_dir = std::filesystem::path(options_.record).parent_path();
    if (record_dir.empty()) record_dir = ".";
    if (record_dir != "recordings")
      for (const std::string& line : presenter::recover_leftovers(record_dir))
        std::fprintf(stderr, "gpulab: %s\n", text::escape(line, 4096).c_str());
    recorder->set_with_ui(options_.record_ui);
    if (!options_.record_ui) view_.ui_visible = false;
    const std::string err =
        recorder->start(options_.record, pf.framebuffer_width(), pf.framebuffer_height(), true, s);
    if (!err.empty()) {
      std::fprintf(stderr, "gpulab: --record: %s\n", err.c_str());
      return 1;
    }
  }
  // Many frames, or large ones, take long: said up front as the batch runs say it (core/batch.h).
  const double frames_start = now_seconds();
  bool estimated = false;
  for (int i = 0; i < frames; ++i) {
    if (i == frames - 1 && !options_.screenshot.empty()) {
      // The last frame: render it with or without the UI as asked, then write the PNG.
      view_.ui_visible = options_.screenshot_ui;
    }
    frame();
    if (const double elapsed = now_seconds() - frames_start; !estimated && elapsed >= 0.2) {
      estimated = true;
      if (const std::string line = batch_estimate(frames, i + 1, elapsed, "frames"); !line.empty())
        std::fprintf(stderr, "%s\n", line.c_str());
    }
  }
  if (recorder->recording()) {
    const std::string line = recorder->stop();
    s.notify(line);
    if (line.rfind("recording failed", 0) == 0) return 1;
  }
  if (!options_.screenshot.empty()) {
    glFinish();
    if (!write_screenshot(options_.screenshot)) return 1;
  }
  if (!options_.layout_report.empty() && !write_layout_report(options_.layout_report)) return 1;
  Demo* d = s.demo();
  const auto rows = d ? d->throughput() : std::vector<Throughput>{};
  const RollingSeries* step = rows.empty() ? nullptr : s.timings().find(rows.front().timed);
  std::fprintf(stderr, "gpulab: %d frames, %s; step median %.3f ms, frame median %.3f ms\n", frames,
               d ? d->caption().c_str() : "no demo", step ? step->median() : 0.0, clock_.frame_ms.median());
  return s.had_error() ? 1 : 0;
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
  if (o.max_image_pixels > 0) image::set_max_pixels(uint64_t(o.max_image_pixels));
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
