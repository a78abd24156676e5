// The one layout function (presenter/screen_layout.h) over the screens a lecture meets: 1280x720,
// 1920x1080 and 3840x2160, UI scale 1 to 3, and every combination of what can be on (panel or the
// compact panel, caption line, lesson band, HUD band, code column, A/B, projector mode): no two regions
// overlap, each lies on the screen, the view keeps a usable share, and the rules each region has.
#include "presenter/screen_layout.h"

#include <gtest/gtest.h>

#include <string>

using gpulab::presenter::kPanelShareMax;
using gpulab::presenter::kProjectorViewShareMin;
using gpulab::presenter::layout_screen;
using gpulab::presenter::LayoutInput;
using gpulab::presenter::overlaps;
using gpulab::presenter::Rect;
using gpulab::presenter::ScreenLayout;

namespace {

std::string describe(const LayoutInput& in) {
  return std::to_string(static_cast<int>(in.width)) + "x" + std::to_string(static_cast<int>(in.height)) +
         " @" + std::to_string(in.ui_scale) + (in.panel ? (in.compact ? " compact" : " panel") : "") +
         (in.collapsed ? " collapsed" : "") + (in.caption ? " caption" : "") + (in.lesson ? " lesson" : "") +
         (in.hud ? " hud" : "") + (in.code ? " code" : "") + (in.ab ? " ab" : "") +
         (in.projector ? " projector" : "");
}

// The bands' wishes grow with the UI scale and with narrow widths (their text wraps), as the HUD's and
// the lesson's do.
LayoutInput input(float w, float h, float scale, unsigned on) {
  LayoutInput in;
  in.width = w;
  in.height = h;
  in.ui_scale = scale;
  in.panel = (on & 1u) != 0;
  in.compact = (on & 2u) != 0;
  in.caption = (on & 4u) != 0;
  in.caption_h = 13.0f * scale + 12.0f;
  in.lesson = (on & 8u) != 0;
  in.hud = (on & 16u) != 0;
  in.code = (on & 32u) != 0;
  in.ab = (on & 64u) != 0;
  in.projector = (on & 128u) != 0;
  in.collapsed = (on & 256u) != 0;
  in.panel_w = in.compact ? 250 * scale : 500 * scale;
  in.lesson_height = [scale](float width) {
    return (2 + 1500.0f * scale / std::max(width, 1.0f)) * 30 * scale;
  };
  in.hud_height = [scale](float width) { return (width < 900 * scale ? 2 : 1) * 90 * scale + 40 * scale; };
  return in;
}

}  // namespace

TEST(ScreenLayout, NoTwoRegionsOverlapOnAnyScreenScaleOrCombination) {
  int cases = 0;
  for (const auto& [w, h] : {std::pair{1280.0f, 720.0f}, {1920.0f, 1080.0f}, {3840.0f, 2160.0f}})
    for (float scale : {1.0f, 2.0f, 3.0f})
      for (unsigned on = 0; on < 512; ++on) {
        const LayoutInput in = input(w, h, scale, on);
        const ScreenLayout l = layout_screen(in);
        const std::string what = describe(in);
        ++cases;
        const auto regions = l.regions();
        for (size_t i = 0; i < regions.size(); ++i) {
          EXPECT_TRUE(regions[i].second.inside(l.display))
              << what << ": " << regions[i].first << " off the screen";
          for (size_t j = i + 1; j < regions.size(); ++j)
            EXPECT_FALSE(overlaps(regions[i].second, regions[j].second))
                << what << ": " << regions[i].first << " overlaps " << regions[j].first;
        }
        // The view: never empty, at least a third of the height and of the width.
        ASSERT_FALSE(l.view.empty()) << what;
        EXPECT_GE(l.view.height(), h / 3 - 0.5f) << what;
        EXPECT_GE(l.view.width(), w / 3 - 0.5f) << what;
        // The panel docked at the left, never more than its share.
        EXPECT_EQ(l.panel.empty(), !in.panel) << what;
        if (in.panel) {
          EXPECT_EQ(l.panel.x0, 0.0f) << what;
          EXPECT_LE(l.panel.width(), w * kPanelShareMax + 0.5f) << what;
        }
        // Each region that was asked for is there (the code column gives way to the view in projector
        // mode only when the view would keep less than half of the width).
        EXPECT_EQ(l.hud.empty(), !in.hud) << what;
        EXPECT_EQ(l.lesson.empty(), !in.lesson) << what;
        EXPECT_EQ(l.caption.empty(), !in.caption) << what;
        if (in.code && !in.projector) {
          EXPECT_FALSE(l.code.empty()) << what;
        }
        if (!in.code) {
          EXPECT_TRUE(l.code.empty()) << what;
        }
        // Projector mode with the code column on: the view keeps at least half the window's width.
        if (in.projector && in.code) {
          EXPECT_GE(l.view.width(), w * kProjectorViewShareMin - 0.5f) << what;
        }
        // A/B's halves split the view, inside it.
        if (in.ab) {
          for (const Rect& half : l.ab) EXPECT_TRUE(half.inside(l.view)) << what;
          EXPECT_FALSE(overlaps(l.ab[0], l.ab[1])) << what;
          EXPECT_NEAR(l.ab[0].width() + l.ab[1].width(), l.view.width(), 0.5f) << what;
        } else {
          EXPECT_TRUE(l.ab[0].empty() && l.ab[1].empty()) << what;
        }
        // The bands lie below the view, the code column beside it.
        if (!l.hud.empty()) {
          EXPECT_GE(l.hud.y0, l.view.y1 - 0.5f) << what;
        }
        if (!l.lesson.empty()) {
          EXPECT_GE(l.lesson.y0, l.view.y1 - 0.5f) << what;
        }
        if (!l.code.empty()) {
          EXPECT_GE(l.code.x0, l.view.x1 - 0.5f) << what;
        }
      }
  EXPECT_EQ(cases, 3 * 3 * 512);
}

TEST(ScreenLayout, TheViewFillsWhatTheRegionsLeave) {
  // Nothing on: the view is the whole screen; the panel alone takes its width off the left.
  const ScreenLayout bare = layout_screen(input(1920, 1080, 1, 0));
  EXPECT_EQ(bare.view.x0, 0.0f);
  EXPECT_EQ(bare.view.x1, 1920.0f);
  EXPECT_EQ(bare.view.y1, 1080.0f);
  const ScreenLayout panel = layout_screen(input(1920, 1080, 1, 1));
  EXPECT_EQ(panel.panel.x1, 500.0f);
  EXPECT_EQ(panel.view.x0, 500.0f);
  // At 3x the panel's wish (1500 points) is held to its share: the demo keeps 70% of the width.
  const ScreenLayout big = layout_screen(input(1920, 1080, 3, 1));
  EXPECT_FLOAT_EQ(big.panel.width(), 1920 * kPanelShareMax);
  EXPECT_FLOAT_EQ(big.view.x0, 1920 * kPanelShareMax);
  // A collapsed compact panel is a strip.
  const ScreenLayout strip = layout_screen(input(1920, 1080, 2, 1 | 2 | 256));
  EXPECT_LT(strip.panel.width(), 60.0f);
  // Bands stack from the bottom: caption line, lesson band, HUD band; the view ends on the HUD band.
  const ScreenLayout all = layout_screen(input(1920, 1080, 2, 1 | 4 | 8 | 16));
  EXPECT_FLOAT_EQ(all.caption.y1, 1080.0f);
  EXPECT_FLOAT_EQ(all.lesson.y1, all.caption.y0);
  EXPECT_FLOAT_EQ(all.hud.y1, all.lesson.y0);
  EXPECT_FLOAT_EQ(all.view.y1, all.hud.y0);
}

TEST(ScreenLayout, ProjectorModeKeepsHalfTheWidthForTheView) {
  // The compact panel at its widest, the code column on: the code gets what the view can spare.
  const LayoutInput in = input(1920, 1080, 2, 1 | 2 | 32 | 128);
  const ScreenLayout l = layout_screen(in);
  ASSERT_FALSE(l.code.empty());
  EXPECT_GE(l.view.width(), 960.0f - 0.5f);
  // Folded, the code column takes its full share of the width right of the strip.
  LayoutInput folded = in;
  folded.collapsed = true;
  const ScreenLayout f = layout_screen(folded);
  EXPECT_GT(f.code.width(), l.code.width());
  EXPECT_GE(f.view.width(), 960.0f - 0.5f);
}
