#pragma once
// Draws a laid-out ladder chart with ImGui's draw list: the same code for the chart in the window and
// in the PNG (ladder_png.h), so both look alike.
#include <imgui.h>

#include <functional>

#include "presenter/ladder_chart.h"

namespace gpulab::presenter {

// The font to draw a face at a pixel size with (ideally one loaded at that size; any other is
// scaled). Null, or a null result: ImGui's current font, scaled.
using ChartFonts = std::function<ImFont*(TextFace face, float px)>;

// A TextMeasure for layout_chart that measures as draw_chart will draw, with `fonts`.
TextMeasure imgui_text_measure(const ChartFonts& fonts);

// Draws `layout` with its top-left corner at `origin`: the background, the boxes, then the texts.
void draw_chart(ImDrawList* draw_list, const ChartLayout& layout, const ChartTheme& theme,
                const ChartFonts& fonts = {}, ImVec2 origin = ImVec2(0, 0));

}  // namespace gpulab::presenter
