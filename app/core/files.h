#pragma once
// Writing the files demos save (patterns, body states): the folder is made, a failure throws
// std::runtime_error naming the path and the reason.
#include <filesystem>
#include <string_view>

namespace gpulab {

void write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace gpulab
