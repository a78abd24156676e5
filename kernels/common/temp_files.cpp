#include "common/temp_files.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace gpulab::files {
namespace {

static_assert(SIGINT == 2 && SIGTERM == 15 && SIGHUP == 1 && SIGQUIT == 3);
constexpr int kSignals = sizeof(kTempSignals) / sizeof(kTempSignals[0]);

// Fixed slots, filled before they are marked used, so that the handler only reads them and calls
// async-signal-safe functions (unlink, sigaction, raise).
constexpr int kTempSlots = 16;
struct TempSlot {
  std::atomic<bool> used{false};
  char path[4096] = {};
};
TempSlot g_temps[kTempSlots];
struct sigaction g_before[kSignals];
std::mutex g_mutex;

int signal_index(int sig) {
  for (int i = 0; i < kSignals; ++i)
    if (kTempSignals[i] == sig) return i;
  return 0;
}

extern "C" void remove_temps_and_reraise(int sig) {
  for (TempSlot& t : g_temps)
    if (t.used.load()) ::unlink(t.path);
  ::sigaction(sig, &g_before[signal_index(sig)], nullptr);
  ::raise(sig);
}

// Takes over each signal whose action is the default one now (called with g_mutex held).
void install_handlers() {
  for (int i = 0; i < kSignals; ++i) {
    struct sigaction now {};
    ::sigaction(kTempSignals[i], nullptr, &now);
    if (now.sa_handler != SIG_DFL || (now.sa_flags & SA_SIGINFO)) continue;  // ignored, ours, or the app's
    g_before[i] = now;
    struct sigaction sa {};
    sa.sa_handler = remove_temps_and_reraise;
    sigemptyset(&sa.sa_mask);
    ::sigaction(kTempSignals[i], &sa, nullptr);
  }
}

}  // namespace

int register_temp(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (path.size() >= sizeof(TempSlot::path)) return -1;
  install_handlers();
  for (int i = 0; i < kTempSlots; ++i) {
    if (g_temps[i].used.load()) continue;
    std::memcpy(g_temps[i].path, path.c_str(), path.size() + 1);
    g_temps[i].used.store(true);
    return i;
  }
  return -1;
}

void unregister_temp(int& slot) {
  if (slot >= 0) g_temps[slot].used.store(false);
  slot = -1;
}

int create_temp(const std::string& prefix, const std::string& suffix, std::string* path, int* slot) {
  static std::atomic<uint64_t> counter{0};
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  *slot = -1;
  for (int attempt = 0; attempt < 100; ++attempt) {
    // A name from the clock, the process and a counter (mixed): unpredictable enough for a name that
    // O_EXCL makes safe anyway.
    uint64_t x = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                 (uint64_t(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
    std::string name = prefix;
    for (int i = 0; i < 6; ++i) {
      x ^= x >> 33;
      x *= 0xFF51AFD7ED558CCDull;
      name += kChars[x % (sizeof(kChars) - 1)];
    }
    name += suffix;
    *slot = register_temp(name);
    const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      *path = std::move(name);
      return fd;
    }
    const int err = errno;
    unregister_temp(*slot);
    if (err != EEXIST) {
      errno = err;
      return -1;
    }
  }
  errno = EEXIST;
  return -1;
}

}  // namespace gpulab::files
