#include "presenter/ladder_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "common/file_io.h"
#include "gl/image_io.h"
#include "presenter/counters_view.h"
#include "presenter/ladder_draw.h"
#include "presenter/ladder_png.h"

namespace gpulab::presenter {

void LadderView::start(Demo& demo, const Context& ctx, bool best_block) {
  run_.reset();
  LadderOptions o;
  o.best_block = best_block;
  run_ = std::make_unique<LadderRun>(demo, ctx, o);
  if (run_->rungs().empty()) {
    run_.reset();
    throw std::invalid_argument("the " + std::string(demo.name()) + " demo lists no variant to measure");
  }
  demo_name_ = std::string(demo.name());
  demo_title_ = std::string(demo.title());
  ctx_ = &ctx;
  stage_count_ = demo.stages().size();
  worst_frame_ms_ = 0;
  frames_ = 0;
  reported_ = false;
  measured_line_.clear();
  measured_line_new_ = false;
  slide_panel_ = -1;
  run_->start();
}

void LadderView::escape() {
  if (!run_) return;
  if (!run_->done())
    run_->cancel();
  else
    run_.reset();
}

ChartData LadderView::chart() const {
  const std::vector<Rung> rs = run_->rungs();
  ChartData c = !counters_ || !run_->done()
                    ? ladder_chart(rs, demo_title_, ladder_device(rs))
                    : ladder_chart(rs, demo_title_, ladder_device(rs),
                                   ladder_chart_counters(counters_->rows(), stage_count_));
  if (recorded_) add_recorded(c, rs, demo_name_, *recorded_);
  return c;
}

void LadderView::set_recorded(const RecordedResults* recorded) {
  if (recorded)
    recorded_ = *recorded;
  else
    recorded_.reset();
}

namespace {
// The report of a drawn chart: its recorded line and rows, its bars, its footnote.
LayoutReport::LadderShown ladder_shown(const ChartData& data, const ChartLayout& layout, ChartStyle style) {
  LayoutReport::LadderShown out;
  out.style = style == ChartStyle::Slide ? "slide" : "detailed";
  for (const ChartBox& b : layout.boxes) {
    out.bars += b.role == BoxRole::Bar;
    out.recorded_bars += b.role == BoxRole::Recorded;
  }
  for (const TextRun& t : layout.texts) {
    if (t.role == TextRole::Recorded && t.rung < 0) out.recorded = t.text;
    if (t.role == TextRole::Footnote) out.footnote += (out.footnote.empty() ? "" : " ") + t.text;
  }
  for (size_t p = 0; p < data.panels.size(); ++p)
    for (size_t i = 0; i < data.panels[p].rungs.size(); ++i) {
      if (data.panels[p].rungs[i].state != ChartRungState::Recorded || !layout.bar(int(p), int(i))) continue;
      std::string line = data.panels[p].rungs[i].name + ":";
      bool first = true;
      for (const TextRun& t : layout.texts)
        if (t.panel == int(p) && t.rung == int(i) && t.role != TextRole::Name && t.role != TextRole::Lesson &&
            t.role != TextRole::Message) {
          line += (first ? " " : " | ") + t.text;
          first = false;
        }
      out.recorded_rungs.push_back(line);
    }
  return out;
}
}  // namespace

void LadderView::draw_counter_actions(const ChartData& data, const ChartLayout& layout, float top) {
  if (layout.slots.empty() || !counters_ || !ctx_) return;
  const std::vector<Rung> rs = run_->rungs();
  const std::string why = counters_->unavailable(*ctx_);
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(layout.width, layout.height));
  ImGui::Begin("##ladder_counters", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoScrollWithMouse);
  for (const ChartSlot& s : layout.slots) {
    if (s.panel < 0 || size_t(s.panel) >= data.panels.size()) continue;
    const std::vector<ChartRung>& crs = data.panels[size_t(s.panel)].rungs;
    if (s.rung < 0 || size_t(s.rung) >= crs.size()) continue;
    const ChartRung& c = crs[size_t(s.rung)];
    if (c.source < 0 || size_t(c.source) >= rs.size()) continue;
    const Rung& r = rs[size_t(c.source)];
    ImGui::PushID(c.source);
    ImGui::SetCursorScreenPos(ImVec2(s.rect.x0, top + s.rect.y0));
    if (!why.empty()) {
      if (c.counters.empty()) ImGui::TextDisabled("counters unavailable");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("counters unavailable: %s", why.c_str());
    } else if (counters_->queued(r.pick)) {
      if (c.counters.empty()) ImGui::TextDisabled("measuring counters\xE2\x80\xA6");
    } else if (c.counters.empty()) {
      if (ImGui::SmallButton("measure counters")) counters_->request(demo_name_, r.pick);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("read the GPU's own counters for one step of %s (on a copy of the input)",
                          r.variant.c_str());
    } else {
      // The line itself is the button: click to measure again.
      if (ImGui::InvisibleButton("##again",
                                 ImVec2(std::max(1.0f, s.rect.width()), std::max(1.0f, s.rect.height()))))
        counters_->request(demo_name_, r.pick);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the GPU's counters for one step of %s; click to measure again", r.variant.c_str());
    }
    ImGui::PopID();
  }
  ImGui::End();
}

int LadderView::slide_shown(const ChartData& data) const {
  if (slide_panel_ >= 0 && size_t(slide_panel_) < data.panels.size()) return slide_panel_;
  if (run_ && !run_->done()) {
    // While measuring: the panel of the rung in measurement, so the slide fills in as it goes.
    const std::string cur = run_->current();
    for (size_t p = 0; p < data.panels.size(); ++p)
      for (const ChartRung& r : data.panels[p].rungs)
        if (r.name == cur) return int(p);
  }
  return default_slide_panel(data);
}

std::string LadderView::save_png(const std::filesystem::path& path, int width, int height) const {
  if (!run_) return "no ladder to save";
  const ChartData data = chart();
  if (style_ == ChartStyle::Slide)
    return save_slide_png(data, slide_shown(data), width, height, path, theme_);
  return save_chart_png(data, width, height, path, theme_);
}

std::string LadderView::save_csv(const std::filesystem::path& path) const {
  if (!run_) return "no ladder to save";
  return files::write_regular_file(path, ladder_csv(run_->rungs()));
}

void LadderView::draw(float width, float height, float ui_scale, double frame_ms, const Notify& notify,
                      const ChartFonts& fonts, const ChartTheme& theme, CountersView* counters,
                      ChartStyle style) {
  if (!run_) return;
  theme_ = theme;
  style_ = style;
  counters_ = counters;
  const bool measuring = !run_->done();
  if (measuring) {
    worst_frame_ms_ = std::max(worst_frame_ms_, frame_ms);
    ++frames_;
  } else if (!reported_) {
    reported_ = true;
    // How the frames fared: for stderr and the Timings tab (measured_line), never a toast over the
    // chart's toolbar.
    char buf[200];
    std::snprintf(buf, sizeof buf, "ladder %s: %d frames while measuring, the slowest %.1f ms%s",
                  demo_name_.c_str(), frames_, worst_frame_ms_, run_->cancelled() ? " (cancelled)" : "");
    measured_line_ = buf;
    measured_line_new_ = true;
    if (std::string e = run_->error(); !e.empty() && notify) notify("ladder: " + e);
  }
  // The chart fills the framebuffer under a strip for the progress line and the buttons.
  const float strip = 44.0f * ui_scale;
  const ChartData data = chart();
  const bool slide = style == ChartStyle::Slide;
  const ChartLayout layout =
      slide ? layout_slide(data, slide_shown(data), width, std::max(100.0f, height - strip),
                           imgui_text_measure(fonts), height)  // type sized for the screen, under the strip
            : layout_chart(data, width, std::max(100.0f, height - strip), imgui_text_measure(fonts));
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  draw_chart(dl, layout, theme, fonts, ImVec2(0, strip));
  shown_ = ladder_shown(data, layout, style);
  if (!measuring) draw_counter_actions(data, layout, strip);

  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, strip));
  ImGui::Begin("##ladder", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing);
  if (measuring) {
    const std::string cur = run_->current();
    char overlay[160];
    std::snprintf(overlay, sizeof overlay, "measuring %s (%.0f%%)", cur.c_str(), 100.0 * run_->progress());
    ImGui::SetNextItemWidth(std::min(width * 0.5f, 700.0f * ui_scale));
    ImGui::ProgressBar(static_cast<float>(run_->progress()),
                       ImVec2(std::min(width * 0.5f, 700.0f * ui_scale), 0), overlay);
    ImGui::SameLine();
    if (ImGui::Button("cancel (Esc)")) run_->cancel();
    ImGui::SameLine();
    ImGui::TextDisabled("the demo is paused; it resumes where it was");
  } else {
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%s ladder%s", demo_title_.c_str(), run_->cancelled() ? " (cancelled)" : "");
    ImGui::SameLine();
    auto save = [&](const char* ext, const std::function<std::string(const std::filesystem::path&)>& write) {
      try {
        // Beside F12's screenshots (the folder is made as F12 makes it).
        const std::filesystem::path p = gl::unique_screenshot_path(save_dir_, "ladder-" + demo_name_, ext);
        const std::string why = write(p);
        if (notify) notify(why.empty() ? "saved " + p.string() : "ladder: " + why);
      } catch (const std::exception& e) {
        if (notify) notify(std::string("ladder: ") + e.what());
      }
    };
    if (ImGui::Button("save PNG 1920x1080"))
      save(".png", [&](const std::filesystem::path& p) { return save_png(p, 1920, 1080); });
    ImGui::SameLine();
    if (ImGui::Button("save PNG 3840x2160"))
      save(".png", [&](const std::filesystem::path& p) { return save_png(p, 3840, 2160); });
    if (slide && data.panels.size() > 1) {
      // One slide a stage: the whole pipeline's (or the lead stage's) first, any other on request.
      ImGui::SameLine();
      const int shown = slide_shown(data);
      ImGui::SetNextItemWidth(220.0f * ui_scale);
      if (ImGui::BeginCombo("##slide", data.panels[size_t(shown)].title.c_str())) {
        for (size_t p = 0; p < data.panels.size(); ++p)
          if (ImGui::Selectable(data.panels[p].title.c_str(), int(p) == shown)) slide_panel_ = int(p);
        ImGui::EndCombo();
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("save CSV")) save(".csv", [&](const std::filesystem::path& p) { return save_csv(p); });
    ImGui::SameLine();
    if (ImGui::Button("close (Esc)")) {
      ImGui::End();
      run_.reset();
      return;
    }
  }
  ImGui::End();
}

}  // namespace gpulab::presenter
