#pragma once
// Reading and writing the files gpulab is given or asked to write (patterns, images, body states,
// screenshots, bench JSON), with one rule for all of them:
// - Only regular files (or symbolic links to one) are read. A FIFO, a device, a socket or a folder
//   is refused without blocking on it (a FIFO with no writer would otherwise hang the reader).
// - Only regular files are written. The bytes go to a temporary file beside the target and are
//   renamed over it, so an interrupted write never leaves half a file; a symbolic link is written
//   through (its target replaced, the link kept). A path naming a FIFO, a device, a socket or a
//   folder is refused, never replaced. No folder is created: a missing one is named.
// Messages quote paths with text::quote (control bytes escaped) and give the system's reason.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::files {

struct ReadResult {
  std::vector<uint8_t> bytes;
  std::string error;  // "" on success, else the reason, without the path (the caller names it)
};

// Reads a whole regular file of at most `max_bytes` bytes.
ReadResult read_regular_file(const std::filesystem::path& path, uint64_t max_bytes);

// Writes `bytes` as described above. "" on success, else a message naming the path and the reason.
std::string write_regular_file(const std::filesystem::path& path, std::span<const uint8_t> bytes);
inline std::string write_regular_file(const std::filesystem::path& path, std::string_view text) {
  return write_regular_file(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

// "" when `path` can be written by write_regular_file (a regular file, or a free name in an existing
// folder), else the message it would give. For checking an output path before hours of work.
std::string check_writable(const std::filesystem::path& path);

// The mode an output written to `target` gets (a temporary file renamed over it, made 0600 by mkstemp,
// is set to it): the replaced file's where there is one, else 0666 less the umask.
unsigned output_file_mode(const std::filesystem::path& target);

// "a FIFO", "a character device", "a folder"...: what a file of this st_mode is, for messages.
std::string file_kind(unsigned st_mode);

}  // namespace gpulab::files
