#pragma once
// A line of text cut to the width of the box it is drawn in, whatever measures it (an ImGui font, the
// slide's raster painter): the one cutting rule of every such place. No ImGui here.
#include <functional>
#include <string>
#include <string_view>

namespace gpulab {

// `text` where width(text) <= max_w; else its longest prefix of whole UTF-8 code points (one at least)
// that fits with `ellipsis` after it.
inline std::string elide_to_width(std::string text, float max_w,
                                  const std::function<float(const std::string&)>& width,
                                  std::string_view ellipsis = "...") {
  if (width(text) <= max_w) return text;
  const std::string tail(ellipsis);
  auto last_start = [&] {  // where the last code point starts
    size_t i = text.size() - 1;
    while (i > 0 && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
    return i;
  };
  while (!text.empty() && last_start() > 0 && width(text + tail) > max_w) text.resize(last_start());
  return text + tail;
}

}  // namespace gpulab
