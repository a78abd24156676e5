#include "presenter/ladder_draw.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace gpulab::presenter {

namespace {

ImFont* font_for(const ChartFonts& fonts, TextFace face, float px) {
  ImFont* f = fonts ? fonts(face, px) : nullptr;
  return f ? f : ImGui::GetFont();
}

ImU32 colour(const ChartTheme& theme, ChartColour c) {
  const Rgba v = theme[c];
  return IM_COL32(v.r, v.g, v.b, v.a);
}

}  // namespace

TextMeasure imgui_text_measure(const ChartFonts& fonts) {
  return [fonts](std::string_view text, TextFace face, float px) {
    ImFont* f = font_for(fonts, face, px);
    return f->CalcTextSizeA(px, FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x;
  };
}

void draw_chart(ImDrawList* dl, const ChartLayout& layout, const ChartTheme& theme, const ChartFonts& fonts,
                ImVec2 origin) {
  auto at = [&](float x, float y) { return ImVec2(origin.x + x, origin.y + y); };
  dl->AddRectFilled(at(0, 0), at(layout.width, layout.height), colour(theme, ChartColour::Background));
  for (const ChartBox& b : layout.boxes) {
    // Bars and tags get slightly rounded ends; panels a softer corner; lines none.
    float rounding = 0;
    if (b.role == BoxRole::Bar || b.role == BoxRole::FailedTag)
      rounding = std::min(b.rect.height() * 0.12f, b.rect.width() * 0.5f);
    else if (b.role == BoxRole::Panel)
      rounding = std::min(layout.height * 0.008f, 12.0f);
    if (b.role == BoxRole::Point) {
      dl->AddCircleFilled(at((b.rect.x0 + b.rect.x1) * 0.5f, (b.rect.y0 + b.rect.y1) * 0.5f),
                          b.rect.width() * 0.5f, colour(theme, b.colour));
      continue;
    }
    if (b.role == BoxRole::Yardstick) {
      // A bound, not a rung: a faint fill inside a heavy outline, so it never reads as a bar.
      const Rgba c = theme[b.colour];
      const float t = std::max(2.0f, std::floor(b.rect.height() * 0.12f));
      dl->AddRectFilled(at(b.rect.x0, b.rect.y0), at(b.rect.x1, b.rect.y1), IM_COL32(c.r, c.g, c.b, 60));
      dl->AddRect(at(b.rect.x0 + t * 0.5f, b.rect.y0 + t * 0.5f),
                  at(b.rect.x1 - t * 0.5f, b.rect.y1 - t * 0.5f), colour(theme, b.colour), 0, 0, t);
      continue;
    }
    if (b.role == BoxRole::Recorded) {
      // Figures recorded on another machine: a pale fill crossed by diagonal hatching inside an outline
      // of the bar's colour, so it never reads as a time measured here.
      const Rgba c = theme[b.colour];
      const ImVec2 p0 = at(b.rect.x0, b.rect.y0), p1 = at(b.rect.x1, b.rect.y1);
      const float h = b.rect.height();
      const float t = std::max(1.5f, std::floor(h * 0.08f));
      dl->AddRectFilled(p0, p1, IM_COL32(c.r, c.g, c.b, 70));
      dl->PushClipRect(p0, p1, true);
      const float step = std::max(4.0f, std::floor(h * 0.3f));
      for (float x = p0.x - h; x < p1.x; x += step)
        dl->AddLine(ImVec2(x, p1.y), ImVec2(x + h, p0.y), IM_COL32(c.r, c.g, c.b, 200), t);
      dl->PopClipRect();
      dl->AddRect(ImVec2(p0.x + t * 0.5f, p0.y + t * 0.5f), ImVec2(p1.x - t * 0.5f, p1.y - t * 0.5f),
                  colour(theme, b.colour), 0, 0, t);
      continue;
    }
    dl->AddRectFilled(at(b.rect.x0, b.rect.y0), at(b.rect.x1, b.rect.y1), colour(theme, b.colour), rounding);
  }
  for (const ChartLine& l : layout.lines)
    dl->AddLine(at(l.x0, l.y0), at(l.x1, l.y1), colour(theme, l.colour), l.thickness);
  for (const TextRun& t : layout.texts) {
    ImFont* f = font_for(fonts, t.face, t.size);
    dl->AddText(f, t.size, at(t.x, t.y), colour(theme, t.colour), t.text.data(),
                t.text.data() + t.text.size());
  }
}

}  // namespace gpulab::presenter
