#pragma once
// Temporary files a signal must not leave behind: the writers' `.gpulab-tmp-*` (file_io.h) and the
// recorder's `.gpulab-rec-*`. SIGINT, SIGTERM, SIGHUP and SIGQUIT end the process without destructors;
// a handler installed where the signal's action is the default one removes every registered file,
// then lets the signal do what it did before (end the process). An ignored signal stays ignored and a
// handler of the app's own is kept (it decides; the destructors then remove the files). SIGKILL and
// crashes leave them: the next start names or removes them (presenter/recorder.h).
#include <string>

namespace gpulab::files {

// Registers `path` for removal on those signals: the slot, or -1 (all slots taken, or a path too long:
// it is then removed only on the ordinary ways out). Checks the signals' actions on each call, so a
// handler the app put back to the default one is replaced again.
int register_temp(const std::string& path);
// Forgets the slot (the file was renamed into place, or removed); sets it to -1.
void unregister_temp(int& slot);

// Creates a new file named `prefix` + 6 random characters + `suffix` (as mkstemps does), registered
// before it exists, so that a signal at any moment removes it: its descriptor (read-write, mode 0600),
// with *path and *slot set; -1 with errno where it cannot be made (*slot then -1).
int create_temp(const std::string& prefix, const std::string& suffix, std::string* path, int* slot);

// The signals whose default action the handler takes over, for tests.
inline constexpr int kTempSignals[] = {2 /*SIGINT*/, 15 /*SIGTERM*/, 1 /*SIGHUP*/, 3 /*SIGQUIT*/};

// A registration for a scope: the file stays registered until release() or the end of the scope.
class TempRegistration {
 public:
  explicit TempRegistration(const std::string& path) : slot_(register_temp(path)) {}
  ~TempRegistration() { unregister_temp(slot_); }
  TempRegistration(const TempRegistration&) = delete;
  TempRegistration& operator=(const TempRegistration&) = delete;
  void release() { unregister_temp(slot_); }

 private:
  int slot_;
};

}  // namespace gpulab::files
