#pragma once
// Writing the text files demos save (patterns, body states) under the one rule of
// common/file_io.h: regular files only, written whole or not at all, no folder created. A failure
// throws std::runtime_error naming the path and the reason.
#include <filesystem>
#include <string_view>

namespace gpulab {

void write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace gpulab
