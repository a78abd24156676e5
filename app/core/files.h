#pragma once
// Writing the text files demos save (patterns, body states) under the one rule of
// common/file_io.h: regular files only, written whole or not at all, no folder created. A failure
// throws std::runtime_error naming the path and the reason.
#include <filesystem>
#include <string>
#include <string_view>

namespace gpulab {

void write_text_file(const std::filesystem::path& path, std::string_view text);

// A command's output file (`gpulab ladder --csv PATH`, `gpulab counters --json PATH`): written as
// write_text_file does, then "COMMAND: wrote PATH" on stderr (control bytes escaped), or
// "gpulab: COMMAND OPTION: why". False when it could not be written. Nothing for an empty path.
bool write_command_output(std::string_view command, const std::string& path, std::string_view text,
                          std::string_view option);

// A lesson file (.toml, in any case): the window opens one dropped on it as a lesson, and a demo's
// own open field says what it is instead of reading it as a pattern or an image.
bool is_lesson_path(const std::filesystem::path& path);
// "'PATH' is a lesson, not <what>: drop it on the window, open it in the Lesson tab or give --lesson".
std::string lesson_given_as(const std::filesystem::path& path, std::string_view what);

}  // namespace gpulab
