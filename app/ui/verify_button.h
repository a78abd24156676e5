#pragma once
// The verify button of a demo's panel: it runs the demo's comparison with the CPU reference and
// keeps the last result below it, green when it passed, red when it did not.
#include <functional>
#include <string>

namespace gpulab::ui {

// Draws the button (with `tooltip`) and the last result. When pressed, `run` returns the result line
// and sets *ok; a throw becomes "verify failed: <why>", not ok. Returns true on the frame it ran (the
// caller may pass the line on).
bool verify_button(const char* tooltip, const std::function<std::string()>& run, std::string* result,
                   bool* ok);

}  // namespace gpulab::ui
