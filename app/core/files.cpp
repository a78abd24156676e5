#include "core/files.h"

#include <stdexcept>

#include "common/file_io.h"

namespace gpulab {

void write_text_file(const std::filesystem::path& path, std::string_view text) {
  if (std::string why = files::write_regular_file(path, text); !why.empty()) throw std::runtime_error(why);
}

}  // namespace gpulab
