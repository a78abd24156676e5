// The elements that draw over the view in their own regions: the HUD, the code column, the key list
// and the toasts (elements.h); the registry's order (make_elements); and what runs (running_variants).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/keymap.h"
#include "presenter/elements.h"
#include "presenter/ladder.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson_player.h"
#include "ui/fonts.h"

namespace gpulab::presenter {

std::vector<std::unique_ptr<Element>> make_elements() {
  std::vector<std::unique_ptr<Element>> out;
  out.push_back(std::make_unique<LessonElement>());
  out.push_back(std::make_unique<AbElement>());
  out.push_back(std::make_unique<CountersElement>());
  out.push_back(std::make_unique<CodeElement>());
  out.push_back(std::make_unique<HudElement>());
  out.push_back(std::make_unique<PointerElement>());
  out.push_back(std::make_unique<RecorderElement>());
  out.push_back(std::make_unique<LadderElement>());
  out.push_back(std::make_unique<HelpElement>());
  out.push_back(std::make_unique<ToastsElement>());
  return out;
}

std::vector<std::string> running_variants(const Demo* d, const AbElement* ab) {
  std::vector<std::string> out;
  auto add = [&](const Demo& demo) {
    for (const Stage& st : demo.stages())
      if (st.active && std::find(out.begin(), out.end(), st.current().id) == out.end())
        out.emplace_back(st.current().id);
  };
  if (!d) return out;
  add(*d);
  if (ab && ab->running() && ab->b_demo() && ab->b_demo()->bound()) add(*ab->b_demo());
  return out;
}

// --- HUD ---------------------------------------------------------------------------------------

bool HudElement::key(Session&, KeyAction a, const KeyPress&) {
  if (a != KeyAction::Hud) return false;
  on_ = !on_;
  return true;
}

bool HudElement::headless_busy(Session& s) {
  const LadderElement* ladder = s.find<LadderElement>();
  if (!on_ || !s.demo() || (ladder && ladder->holds_demo())) return false;
  if (!had_demo_) return true;  // its first frame starts the baseline it needs
  const double now = s.now();
  if (job_) {
    if (waited_from_ < 0) waited_from_ = now;
    return now - waited_from_ < 30;
  }
  if (waited_from_ < 0) return false;  // nothing to wait for
  // The baseline's end starts the timings' window afresh: a refresh of the HUD (0.5 s) with new samples.
  if (settle_from_ < 0) settle_from_ = now;
  return now - settle_from_ < 0.6;
}

void HudElement::frame(Session& s, const Frame&) {
  shown_ = {};
  // Frames start with no live step in flight: a hold the job asked for holds from here.
  if (job_ && job_->wants_hold()) job_->hold_granted();
  Demo* d = s.demo();
  LadderElement* ladder = s.find<LadderElement>();
  const LessonElement* lesson = s.find<LessonElement>();
  had_demo_ = had_demo_ || (d && !(ladder && ladder->holds_demo()));
  if (d && !(ladder && ladder->holds_demo()))
    s.guarded("hud", [&] {
      HudInput in = hud_input(*d, s.timings(), s.context());
      if (lesson && lesson->stand_in()) {
        const LessonElement::StandIn& si = *lesson->stand_in();
        in.not_run_here = si.asked + (si.no_gpu ? " needs an NVIDIA GPU" : " cannot run here");
        in.variant = si.running + ", the CPU reference for " + si.asked;
        // Figures recorded on a GPU (--results) for the step's variant, labelled as such.
        const RecordedResults* rec = s.recorded();
        bool other_size = false;
        const RecordedRow* row = rec && rec->demo == d->name()
                                     ? rec->find("", si.recorded_row, in.baseline_case.items, &other_size)
                                     : nullptr;
        if (row) {
          in.recorded = rec->label() + (other_size ? ", at " + row->size : std::string());
          in.variant = si.asked + ", " + in.recorded;
          in.ms_per_step = row->ms_per_step;
          in.pct_peak = 0;
          in.peak_known = false;
          if (row->speedup) {
            in.recorded_speedup = row->speedup;
            in.recorded_baseline = row->speedup_baseline;
          }
        }
      }
      background_baseline(s, *d, in);
      hud_.update(s.now(), in);
    });
  if (!d || !ladder || !ladder->done() || ladder->run() == ladder_fed_) return;
  ladder_fed_ = ladder->run();
  // The ladder ran on the demo's current input, left unchanged: its CPU rung is the baseline of the
  // HUD's read-out, the first stage's when the read-out times that stage, the CPU pipeline's when it
  // times the whole pipeline.
  s.guarded("hud", [&] {
    const std::vector<Throughput> rows = d->throughput();
    if (rows.empty()) return;
    const bool pipeline = rows.front().whole_pipeline;
    const HudInput in = hud_input(*d, s.timings(), s.context());
    for (const Rung& r : ladder->view()->rungs()) {
      if (r.state != RungState::Measured) continue;
      const bool base =
          pipeline ? r.stage_id == "pipeline" && !r.gpu : in.baseline && same_variant(r.pick, *in.baseline);
      if (base) hud_.note_baseline(in.baseline_case, r.row.ms_median);
    }
  });
}

void HudElement::background_baseline(Session& s, Demo& d, HudInput& in) {
  if (job_ && job_->done()) {
    const std::optional<double> ms = job_->ms();
    if (ms) hud_.note_baseline(job_case_, *ms, job_->approximate());
    // The live samples taken while it ran shared the CPU with it (a GPU step's launches wait for a
    // core): the window starts afresh.
    s.timings().clear();
    for (auto& [c, why] : tried_)
      if (c.same(job_case_)) why = ms ? std::string() : job_->error();
    job_.reset();
  }
  in.baseline_measuring = job_ && job_case_.same(in.baseline_case);
  in.baseline_holds = in.baseline_measuring && job_->wants_hold();
  const auto tried = std::find_if(tried_.begin(), tried_.end(),
                                  [&](const auto& t) { return t.first.same(in.baseline_case); });
  if (tried != tried_.end()) in.baseline_error = tried->second;
  // Once a case, one job at a time (a job measuring a case left behind runs to its end: its time is
  // kept for when that case comes back), and only where the HUD would say "not measured yet".
  // A new job only while the HUD is shown: it may hold the live step, which nobody asked for otherwise.
  if (!on_ || job_ || tried != tried_.end() || in.on_baseline || !in.baseline || !in.baseline_case.input ||
      !in.not_run_here.empty() || !in.recorded.empty() || hud_.baseline(in.baseline_case))
    return;
  // The baseline's probe (a copy of the current input, a CPU engine), made here where the demo may be
  // read: the lead stage's CPU baseline, or for a read-out of the whole pipeline the CPU pipeline (each
  // running stage's first CPU variant, chained).
  // A live demo whose stages all run on the CPU (always so without a GPU) steps on the cores the
  // baseline needs: it holds while the baseline is timed, at the normal priority. A live GPU demo
  // goes on, and the baseline takes what cores it leaves, at the lowest priority.
  const StageTables& tables = d.stage_tables();
  bool live_on_cpu = !s.context().cuda;
  if (!live_on_cpu) {
    live_on_cpu = true;
    for (const Pick& p : s.setup().picks)
      if (p.stage < tables.stages.size() && p.variant >= 0 &&
          static_cast<size_t>(p.variant) < tables.stages[p.stage].variants.size() &&
          tables.stages[p.stage].variants[static_cast<size_t>(p.variant)].needs_cuda)
        live_on_cpu = false;
  }
  const Picks picks = baseline_picks(tables, s.setup().picks);
  auto make = [&] { return d.probe(picks, in.whole_pipeline ? kWholePipeline : in.baseline->stage); };
  Probe probe = live_on_cpu ? make() : make_probe_at_low_priority(make);
  BenchSuite peaks;
  peaks.peak_bandwidth_gbps = s.context().peak_bandwidth_gbps;
  peaks.peak_fp32_gflops = s.context().peak_fp32_gflops;
  job_ = std::make_unique<BaselineJob>(std::move(probe), peaks, live_on_cpu);
  job_case_ = in.baseline_case;
  tried_.emplace_back(in.baseline_case, std::string());
  in.baseline_measuring = true;
}

void HudElement::wants(Session& s, LayoutInput& in) {
  in.hud = on_ && s.demo() != nullptr;
  const ui::Fonts* fonts = s.look().fonts;
  in.hud_height = [this, fonts](float width) {
    return hud_band_height(hud_.reading(), width, fonts ? fonts->hud : nullptr, fonts ? fonts->ui : nullptr);
  };
}

void HudElement::draw(Session& s, const ScreenLayout& l) {
  if (!on_ || l.hud.empty() || !s.demo()) return;
  const ui::Fonts* fonts = s.look().fonts;
  const HudReading& r = hud_.reading();
  const HudPlaced p =
      draw_hud(r, HudBox{l.hud.x0, l.hud.y0, l.hud.x1, l.hud.y1}, fonts ? fonts->hud : nullptr,
               fonts ? fonts->ui : nullptr, s.look().light, true);
  shown_.shown = true;
  shown_.x0 = p.box.x0;
  shown_.y0 = p.box.y0;
  shown_.x1 = p.box.x1;
  shown_.y1 = p.box.y1;
  shown_.view_x0 = l.view.x0;
  shown_.view_x1 = l.view.x1;
  shown_.view_y1 = l.view.y1;
  shown_.title = r.title;
  for (size_t i = 0; i < p.items.size(); ++i) {
    shown_.values.push_back(r.figures[i].value);
    shown_.captions.push_back(r.figures[i].caption);
  }
}

// --- code column -------------------------------------------------------------------------------

bool CodeElement::key(Session&, KeyAction a, const KeyPress&) {
  if (a != KeyAction::CodePanel) return false;
  on_ = !on_;
  return true;
}

void CodeElement::wants(Session& s, LayoutInput& in) { in.code = on_ && s.demo() != nullptr; }

void CodeElement::draw(Session& s, const ScreenLayout& l) {
  Demo* d = s.demo();
  if (!on_ || !d || l.code.empty()) return;
  s.guarded("code panel", [&] {
    const ui::Fonts* fonts = s.look().fonts;
    CodePanelPlace place;
    place.x0 = l.code.x0;
    place.y0 = l.code.y0;
    place.x1 = l.code.x1;
    place.y1 = l.code.y1;
    place.min_px = s.look().projector || s.look().ui_scale >= 2 ? 20.0f * l.display.height() / 1080.0f : 0.0f;
    place.mark_first = mark_first_;
    place.mark_last = mark_last_;
    place.mark_name = mark_name_;
    CodePicks what;
    what.tables = &d->stage_tables();
    if (picks_ && picks_for_ != s.setup().picks) picks_.reset();
    what.picks = picks_ && picks_->size() == s.setup().picks.size() ? *picks_ : s.setup().picks;
    for (size_t st = 0; st < what.picks.size(); ++st)
      if (d->inactive_reason(st).empty()) what.active.push_back(st);
    // A/B: B's code, marked where it differs from A's.
    const AbElement* ab = s.find<AbElement>();
    if (ab && ab->running() && ab->b_demo() && ab->b_demo()->bound() &&
        ab->b_demo()->setup().picks.size() == what.picks.size()) {
      what.against = what.picks;
      what.picks = ab->b_demo()->setup().picks;
    }
    if (!draw_code_panel(what, &stage_, &cache_, fonts ? fonts->mono : nullptr,
                         fonts ? fonts->mono_small : nullptr, s.look().light, place, &shown_))
      on_ = false;
  });
}

// --- pointer ---------------------------------------------------------------------------------

bool PointerElement::key(Session&, KeyAction a, const KeyPress&) {
  if (a != KeyAction::Pointer) return false;
  on_ = !on_;
  return true;
}

void PointerElement::frame(Session&, const Frame& f) {
  shown_ = {};
  // The demo's input is in framebuffer pixels; the overlay draws in window points.
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float x = f.input.mouse_x / std::max(fs.x, 1e-3f), y = f.input.mouse_y / std::max(fs.y, 1e-3f);
  // The mouse moving over the projected picture takes it back from the pad.
  if ((x != x_ || y != y_) && x >= view_.x0 && x < view_.x1 && y >= view_.y0 && y < view_.y1)
    from_pad_ = false;
  x_ = x;
  y_ = y;
}

void PointerElement::point_at(float u, float v) {
  from_pad_ = true;
  u_ = std::clamp(u, 0.0f, 1.0f);
  v_ = std::clamp(v, 0.0f, 1.0f);
}

std::optional<std::pair<float, float>> PointerElement::spot() const {
  if (!on_ || !shown_.shown) return std::nullopt;
  return std::pair{u_, v_};
}

void PointerElement::draw(Session& s, const ScreenLayout& l) {
  if (!on_ || l.view.empty()) return;
  const Rect& v = l.view;
  view_ = v;
  if (from_pad_) {
    x_ = v.x0 + u_ * v.width();
    y_ = v.y0 + v_ * v.height();
  }
  if (!(x_ >= v.x0 && x_ < v.x1 && y_ >= v.y0 && y_ < v.y1)) return;  // only over the picture
  if (!from_pad_) {
    u_ = (x_ - v.x0) / std::max(v.width(), 1.0f);
    v_ = (y_ - v.y0) / std::max(v.height(), 1.0f);
  }
  const float r = std::max(30.0f, v.height() * 0.08f);
  const float far = std::hypot(v.width(), v.height());
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->PushClipRect(ImVec2(v.x0, v.y0), ImVec2(v.x1, v.y1), false);
  // The rest of the view dimmed: one thick ring from the spot's edge to past the view's corners.
  dl->AddCircle(ImVec2(x_, y_), r + far * 0.5f, IM_COL32(0, 0, 0, 150), 96, far);
  dl->AddCircle(ImVec2(x_, y_), r, s.look().light ? IM_COL32(220, 30, 30, 255) : IM_COL32(255, 220, 60, 255),
                64, std::max(3.0f, r * 0.08f));
  dl->PopClipRect();
  shown_ = {true, x_, y_, r, from_pad_ ? "presenter" : "mouse"};
}

// --- the key list ------------------------------------------------------------------------------

bool HelpElement::key(Session&, KeyAction a, const KeyPress&) {
  if (a == KeyAction::Help) {
    on_ = !on_;
    return true;
  }
  if (a == KeyAction::Close && on_) {
    on_ = false;
    return true;
  }
  if (a == KeyAction::Ladder) on_ = false;  // the ladder takes the screen; its key goes on to it
  return false;
}

void HelpElement::draw(Session& s, const ScreenLayout& l) {
  if (!on_) return;
  // Every key, the lesson's too (they act while a lesson runs; without one PageDown says so).
  std::vector<KeyBinding> keys(shell_keys().begin(), shell_keys().end());
  if (Demo* d = s.demo()) {
    const std::vector<KeyBinding> own = d->keys();
    keys.insert(keys.end(), own.begin(), own.end());
  }
  // Rows: one per action (F1 and ? share one), in groups, in two halves side by side, so that the
  // list fits the screen at a large UI scale.
  const std::vector<KeyRow> rows = key_rows(keys);
  const ImVec2 room(l.display.width() * 0.95f, l.display.height() * 0.95f);
  ImGui::SetNextWindowPos(ImVec2(l.display.width() * 0.5f, l.display.height() * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), room);
  ImGui::SetNextWindowBgAlpha(1.0f);
  ImGui::SetNextWindowFocus();  // above the panel and the code column
  bool open = true;
  if (ImGui::Begin("Keys (F1 or ? to close)", &open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    // Each half as lines (a group's title, then its keys), drawn side by side in one table.
    struct Line {
      std::string keys;
      std::string_view what;
      bool title = false;
    };
    std::vector<Line> lines;
    std::string_view group;
    for (const KeyRow& r : rows) {
      if (r.group != group || lines.empty()) {
        group = r.group;
        lines.push_back({std::string(group), {}, true});
      }
      lines.push_back({r.keys, r.what, false});
      shown_.keys.push_back(r.keys);
    }
    // Columns side by side, two (three when two would not fit the screen's height), balanced by their
    // wrapped height; a column that starts inside a group repeats the group's title.
    const ImGuiStyle& st = ImGui::GetStyle();
    float keys_max = 0;
    for (const Line& ln : lines)  // group titles run on into the empty description cell beside them
      if (!ln.title) keys_max = std::max(keys_max, ImGui::CalcTextSize(ln.keys.c_str()).x);
    auto columns = [&](size_t k) {
      const float chrome = 2 * st.WindowPadding.x + 4 * k * st.CellPadding.x + ImGui::GetFontSize() * k;
      const float wrap = std::max(ImGui::GetFontSize() * 8, (room.x - chrome - keys_max * k) / k);
      std::vector<float> h;
      float total = 0;
      for (const Line& ln : lines) {
        const float th =
            ln.title ? ImGui::GetTextLineHeight()
                     : ImGui::CalcTextSize(ln.what.data(), ln.what.data() + ln.what.size(), false, wrap).y;
        h.push_back(th + 2 * st.CellPadding.y + st.ItemSpacing.y);
        total += h.back();
      }
      std::vector<std::vector<Line>> cols(1);
      float acc = 0, tallest = 0, col_h = 0;
      std::string_view group;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].title) group = lines[i].keys;
        if (cols.size() < k && acc + h[i] / 2 > total * cols.size() / k && !cols.back().empty()) {
          // A group's title never ends a column: it moves on with its first key.
          const bool orphan = cols.back().back().title;
          const Line carried = cols.back().back();
          if (orphan) cols.back().pop_back();
          tallest = std::max(tallest, col_h);
          cols.emplace_back();
          col_h = 0;
          if (orphan) {
            cols.back().push_back(carried);
            col_h += ImGui::GetTextLineHeight() + 2 * st.CellPadding.y + st.ItemSpacing.y;
          } else if (!lines[i].title) {  // inside a group: its title again
            cols.back().push_back({std::string(group) + " (continued)", {}, true});
            col_h += ImGui::GetTextLineHeight() + 2 * st.CellPadding.y + st.ItemSpacing.y;
          }
        }
        cols.back().push_back(lines[i]);
        acc += h[i];
        col_h += h[i];
      }
      tallest = std::max(tallest, col_h);
      return std::pair{cols, tallest};
    };
    auto [half, tallest] = columns(2);
    if (tallest + ImGui::GetFrameHeight() * 2 > room.y) std::tie(half, tallest) = columns(3);
    const size_t ncol = half.size();
    // The descriptions wrap at what the screen leaves them (a 3x UI on 1080p still fits).
    std::vector<float> keys_w(ncol, 0.0f);
    float keys_total = 0;
    for (size_t side = 0; side < ncol; ++side) {
      for (const Line& ln : half[side])
        if (!ln.title) keys_w[side] = std::max(keys_w[side], ImGui::CalcTextSize(ln.keys.c_str()).x);
      keys_total += keys_w[side];
    }
    const float chrome = 2 * st.WindowPadding.x + 4 * ncol * st.CellPadding.x + ImGui::GetFontSize() * ncol;
    const float what_w = std::max(ImGui::GetFontSize() * 8, (room.x - chrome - keys_total) / ncol);
    // One table a column (their rows need not line up), side by side in an outer table.
    std::vector<float> what_col(ncol, 0.0f);
    for (size_t side = 0; side < ncol; ++side) {
      float longest = 0;
      for (const Line& ln : half[side])
        if (!ln.title)
          longest = std::max(longest, ImGui::CalcTextSize(ln.what.data(), ln.what.data() + ln.what.size()).x);
      what_col[side] = std::min(longest, what_w);
    }
    if (ImGui::BeginTable("keys", static_cast<int>(ncol), ImGuiTableFlags_SizingFixedFit)) {
      for (size_t side = 0; side < ncol; ++side) {
        const std::string id = "column" + std::to_string(side);
        ImGui::TableSetupColumn(id.c_str(), ImGuiTableColumnFlags_WidthFixed,
                                keys_w[side] + what_col[side] + 4 * st.CellPadding.x +
                                    (side + 1 < ncol ? ImGui::GetFontSize() : 0.0f));
      }
      ImGui::TableNextRow();
      for (size_t side = 0; side < ncol; ++side) {
        ImGui::TableSetColumnIndex(static_cast<int>(side));
        const float col_what = what_col[side];
        const std::string id = "keys" + std::to_string(side);
        if (!ImGui::BeginTable(id.c_str(), 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoClip))
          continue;
        ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, keys_w[side]);
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, col_what);
        for (const Line& ln : half[side]) {
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          if (ln.title) {
            ImGui::TextDisabled("%s", ln.keys.c_str());
            continue;
          }
          ImGui::TextUnformatted(ln.keys.c_str());
          ImGui::TableSetColumnIndex(1);
          ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + col_what);
          ImGui::TextWrapped("%.*s", static_cast<int>(ln.what.size()), ln.what.data());
          ImGui::PopTextWrapPos();
        }
        ImGui::EndTable();
      }
      ImGui::EndTable();
    }
    shown_.shown = true;
    shown_.x0 = ImGui::GetWindowPos().x;
    shown_.y0 = ImGui::GetWindowPos().y;
    shown_.x1 = shown_.x0 + ImGui::GetWindowSize().x;
    shown_.y1 = shown_.y0 + ImGui::GetWindowSize().y;
    shown_.scroll_y = ImGui::GetScrollMaxY() > 0 || ImGui::GetScrollMaxX() > 0;
  }
  ImGui::End();
  if (!open) on_ = false;
}

// --- toasts ------------------------------------------------------------------------------------

ToastsElement::ToastsElement() = default;
ToastsElement::~ToastsElement() = default;

void ToastsElement::frame(Session&, const Frame&) {
  shown_ = {};
  if (!ImGui::GetCurrentContext()) return;
  if (!list_) list_ = std::make_unique<ImDrawList>(ImGui::GetDrawListSharedData());
  list_->_ResetForNewFrame();
  list_->PushClipRectFullScreen();
}

void ToastsElement::draw(Session& s, const ScreenLayout& l) {
  const double t = s.now();
  std::vector<std::string> lines;
  for (const Notice& n : s.notices()) {
    if (t - n.time > kSeconds) continue;
    lines.push_back(n.count > 1 ? n.text + " (" + std::to_string(n.count) + "×)" : n.text);
  }
  if (lines.empty()) return;
  const ui::Fonts* fonts = s.look().fonts;
  ImFont* font = fonts && fonts->ui ? fonts->ui : ImGui::GetFont();
  const float px = font->FontSize;
  const float pad = std::max(4.0f, px * 0.4f);
  // At the top right of the view (of the screen when the view is empty), at most 60% of its width,
  // the newest at the bottom.
  const Rect area = l.view.empty() ? l.display : l.view;
  const float wrap = std::max(area.width() * 0.6f - 2 * pad, px * 8);
  std::vector<ImVec2> sizes;
  for (const std::string& ln : lines) sizes.push_back(font->CalcTextSizeA(px, 1e9f, wrap, ln.c_str()));
  // Inside the view's height: the oldest go first when they do not fit (they are on stderr too).
  auto height = [&] {
    float h = 0;
    for (const ImVec2& ts : sizes) h += ts.y + pad * 0.5f;
    return h;
  };
  while (lines.size() > 1 && height() + 3 * pad > area.height()) {
    lines.erase(lines.begin());
    sizes.erase(sizes.begin());
  }
  float w = 0;
  for (const ImVec2& ts : sizes) w = std::max(w, ts.x);
  const float h = height();
  // Above everything: a list of its own, rendered after every window and the foreground list, and
  // after a clip has read the frame (a clip of a lecture has no "recording…" in it).
  if (!list_) return;
  ImDrawList* dl = list_.get();
  dl->PushTextureID(font->ContainerAtlas->TexID);
  const auto [back, ink] = overlay_colours(s.look().light);
  shown_.x1 = area.x1 - pad;
  shown_.x0 = shown_.x1 - w - 2 * pad;
  shown_.y0 = area.y0 + pad;
  shown_.y1 = std::min(shown_.y0 + h + 1.5f * pad, area.y1);
  dl->PushClipRect(ImVec2(area.x0, area.y0), ImVec2(area.x1, area.y1), false);
  dl->AddRectFilled(ImVec2(shown_.x0, shown_.y0), ImVec2(shown_.x1, shown_.y1), back, pad * 0.5f);
  float y = shown_.y0 + pad;
  for (size_t i = 0; i < lines.size(); ++i) {
    dl->AddText(font, px, ImVec2(shown_.x0 + pad, y), ink, lines[i].c_str(), nullptr, wrap);
    y += sizes[i].y + pad * 0.5f;
  }
  dl->PopClipRect();
  dl->PopTextureID();
  shown_.shown = true;
  shown_.lines = std::move(lines);
}

}  // namespace gpulab::presenter
