#include "common/file_io.h"
#include "common/temp_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/text.h"

namespace gpulab::files {
namespace fs = std::filesystem;
namespace {

std::string errno_text(int err) { return err ? std::strerror(err) : "unknown error"; }

// "64 MiB", "1.5 GiB", "812 bytes".
std::string size_text(uint64_t bytes) {
  static const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0 || v >= 10 || v == static_cast<double>(static_cast<uint64_t>(v)))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  return buf;
}

struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The file a write to `path` lands in: `path` itself, or where its symbolic links lead.
fs::path write_target(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
  fs::path target = fs::weakly_canonical(path, ec);
  return ec ? path : target;
}

// "" when `target` can be written: a regular file, or a free name in an existing folder.
std::string check_target(const fs::path& shown, const fs::path& target) {
  const std::string name = text::quote(shown.string());
  if (shown.empty()) return "no file name given (an empty path)";
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      return "cannot write " + name + ": it is " + file_kind(st.st_mode) + ", not a regular file";
    // Renaming over a file needs only the folder's permission: a read-only file would be replaced.
    // Not for root either (who may write anything): no write bit at all means "keep this".
    if (::access(target.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)
      return "cannot write " + name + ": it is read-only (not replaced)";
    return {};
  }
  if (errno != ENOENT && errno != ENOTDIR) return "cannot write " + name + ": " + errno_text(errno);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT)
      return "cannot write " + name + ": the folder " + text::quote(dir.string()) +
             " does not exist (gpulab creates no folders)";
    return "cannot write " + name + ": " + text::quote(dir.string()) + ": " + errno_text(errno);
  }
  if (!S_ISDIR(st.st_mode))
    return "cannot write " + name + ": " + text::quote(dir.string()) + " is " + file_kind(st.st_mode) +
           ", not a folder";
  return {};
}

}  // namespace

unsigned output_file_mode(const std::filesystem::path& target) {
  // mkstemp makes the file 0600; a written file gets the usual 0666 less the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat old {};
  return ::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode) ? (old.st_mode & 07777) : (0666 & ~mask);
}

std::string file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "a special file";
}

ReadResult read_regular_file(const fs::path& path, uint64_t max_bytes) {
  ReadResult r;
  if (path.empty()) {
    r.error = "no file name given (an empty path)";
    return r;
  }
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  Fd f(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (f.fd < 0) {
    r.error = errno_text(errno);
    return r;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    r.error = errno_text(errno);
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.error = "it is " + file_kind(st.st_mode) + ", not a regular file";
    return r;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    r.error = "the file is " + size_text(static_cast<uint64_t>(st.st_size)) + "; files over " +
              size_text(max_bytes) + " are refused";
    return r;
  }
  const int flags = ::fcntl(f.fd, F_GETFL);
  if (flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  try {
    r.bytes.resize(static_cast<size_t>(st.st_size));
  } catch (const std::bad_alloc&) {
    r.error = "not enough memory to read " + std::to_string(static_cast<uint64_t>(st.st_size)) + " bytes";
    return r;
  }
  size_t got = 0;
  // A file that grows while it is read is read up to the size it had, plus one byte to notice.
  for (;;) {
    if (got == r.bytes.size()) {
      if (got >= max_bytes) break;
      char probe;
      const ssize_t n = ::read(f.fd, &probe, 1);
      if (n <= 0) break;
      r.bytes.push_back(static_cast<uint8_t>(probe));
      ++got;
      if (got > max_bytes) {
        r.bytes.clear();
        r.error =
            "the file grew past " + size_text(max_bytes) + " while it was read; files over that are refused";
        return r;
      }
      r.bytes.resize(std::min<uint64_t>(max_bytes + 1, got + (64u << 10)));
    }
    const ssize_t n = ::read(f.fd, r.bytes.data() + got, r.bytes.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      r.error = errno_text(errno);
      r.bytes.clear();
      return r;
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  r.bytes.resize(got);
  return r;
}

// The temporary file a write goes through: in the target's folder (rename works within one file
// system), a short name of its own, so that a target of any legal name length can be written.
static std::string temp_prefix(const fs::path& target) {
  return (target.has_parent_path() ? target.parent_path() : fs::path(".")).string() + "/.gpulab-tmp-";
}

std::string check_writable(const fs::path& path) {
  const fs::path target = write_target(path);
  if (std::string why = check_target(path, target); !why.empty()) return why;
  // The folder may be read-only, or full: only creating the file tells, so the temporary file is
  // tried now, before the work, rather than after it.
  std::string tmp = temp_prefix(target) + "XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    return "cannot write " + text::quote(path.string()) +
           ": cannot create a file in its folder: " + errno_text(errno);
  ::close(fd);
  ::unlink(tmp.c_str());
  return {};
}

std::string write_regular_file(const fs::path& path, std::span<const uint8_t> bytes) {
  const fs::path target = write_target(path);
  if (std::string why = check_target(path, target); !why.empty()) return why;
  const std::string name = text::quote(path.string());

  // Registered before it exists: SIGINT, SIGTERM, SIGHUP or SIGQUIT mid-write removes it (temp_files.h).
  std::string tmp;
  int slot = -1;
  Fd f(create_temp(temp_prefix(target), "", &tmp, &slot));
  struct Unregister {
    int& slot;
    ~Unregister() { unregister_temp(slot); }
  } unregister{slot};
  if (f.fd < 0)
    return "cannot write " + name + ": cannot create a temporary file beside it: " + errno_text(errno);
  auto fail = [&](int err) {
    ::unlink(tmp.c_str());
    return "cannot write " + name + ": " + errno_text(err);
  };
  if (::fchmod(f.fd, static_cast<mode_t>(output_file_mode(target))) != 0) return fail(errno);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(f.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(errno);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(f.fd) != 0) {
    f.fd = -1;
    return fail(errno);
  }
  f.fd = -1;
  if (::rename(tmp.c_str(), target.c_str()) != 0) return fail(errno);
  return {};
}

}  // namespace gpulab::files
