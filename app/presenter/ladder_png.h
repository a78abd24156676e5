#pragma once
// The ladder chart as a PNG for a slide: drawn by draw_chart (the window's look) into an offscreen
// framebuffer of the current GL context, with an ImGui context of its own (the window's ImGui state
// is untouched) and DejaVu fonts rasterised at the sizes the layout chose.
#include <filesystem>
#include <functional>
#include <string>

#include "presenter/ladder_chart.h"

namespace gpulab {
struct Options;
}

namespace gpulab::presenter {

// "" when width × height is a chart PNG size (16:9, from 640x360 to 7680x4320; 1920x1080 and
// 3840x2160 are the usual ones), else why not.
std::string check_chart_png_size(int width, int height);

struct ChartPngInfo {
  ChartLayout layout;        // what was drawn, in the PNG's pixels
  std::string font_warning;  // why ImGui's default font stood in for DejaVu ("" when it did not)
};

// Renders `data` at width × height with the current GL context (4.5 core) and writes it to `path`
// (a regular file, written beside and renamed into place; a missing folder, a FIFO or a device is
// refused and nothing is written). Returns "" on success, else the error. Restores the framebuffer
// bindings, viewport, clear colour and scissor state it changes, and the current ImGui context, so
// it may be called inside the app's frame loop. A missing font is not an error: ImGui's default
// font is used and `info->font_warning` says why.
std::string save_chart_png(const ChartData& data, int width, int height, const std::filesystem::path& path,
                           const ChartTheme& theme = ChartTheme::dark(), ChartPngInfo* info = nullptr);

// The slide of panel `panel` (layout_slide), written as save_chart_png writes the chart.
std::string save_slide_png(const ChartData& data, int panel, int width, int height,
                           const std::filesystem::path& path,
                           const ChartTheme& theme = ChartTheme::projector(), ChartPngInfo* info = nullptr);

// Any laid-out chart (the roofline, presenter/roofline.h) the same way: `lay_out` lays it out with a
// measure of the fonts that will draw it; `glyphs` holds every character it may draw.
std::string save_layout_png(const std::function<ChartLayout(const TextMeasure&)>& lay_out,
                            const std::string& glyphs, int width, int height,
                            const std::filesystem::path& path, const ChartTheme& theme = ChartTheme::dark(),
                            ChartPngInfo* info = nullptr);

// What --png asks for: the file, its size, --png-style ("": the detailed chart) and --png-stages.
struct LadderPngRequest {
  std::string path;
  int width = 1920, height = 1080;
  std::string style;
  bool stages = false;
};
// The request as the command line gives it (the ladder's and the counters' --png alike).
LadderPngRequest ladder_png_request(const Options& options);
// --png as the command line asks: the detailed chart (dark) without a style, else the default slide
// (the whole pipeline, or the lead stage) in that style, and with stages a slide for each other panel
// beside it (OUT-STAGE.png). Prints what it wrote; false when a file could not be written.
bool write_ladder_pngs(const ChartData& chart, const LadderPngRequest& request);
// The theme of --png-style ("projector": on black, "light": on white; else the dark chart's).
ChartTheme png_style_theme(const std::string& style);

}  // namespace gpulab::presenter
