#pragma once
// GPULAB_FONT_DIR set (or unset) for a scope, then put back as it was: a test that drops it leaves the
// tests after it in the same process without the fonts the machine's kit pointed at.
#include <cstdlib>
#include <optional>
#include <string>

namespace gpulab::testing {

class FontDir {
 public:
  explicit FontDir(const char* value) {
    if (const char* old = std::getenv("GPULAB_FONT_DIR")) old_ = old;
    if (value)
      ::setenv("GPULAB_FONT_DIR", value, 1);
    else
      ::unsetenv("GPULAB_FONT_DIR");
  }
  ~FontDir() {
    if (old_)
      ::setenv("GPULAB_FONT_DIR", old_->c_str(), 1);
    else
      ::unsetenv("GPULAB_FONT_DIR");
  }
  FontDir(const FontDir&) = delete;
  FontDir& operator=(const FontDir&) = delete;

 private:
  std::optional<std::string> old_;
};

}  // namespace gpulab::testing
