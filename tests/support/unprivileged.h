#pragma once
// Runs a check as an unprivileged user (nobody, uid/gid 65534) when the tests run as root, as CI does:
// root may write read-only files and folders, so the permission cases would otherwise pass for the
// wrong reason or be skipped. The check runs in a forked child that drops its ids (as setpriv
// --reuid/--regid would) and sends back one string; as a normal user it runs in the child unchanged.
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace gpulab::testing {

inline constexpr uid_t kNobody = 65534;

// `check()`'s result, computed as the unprivileged user; "child failed: ..." when the child could not
// run it. Files the check touches must be reachable by that user (chmod 0777 folders made for it).
inline std::string as_unprivileged(const std::function<std::string()>& check) {
  int fds[2];
  if (::pipe(fds) != 0) return "child failed: no pipe";
  const pid_t pid = ::fork();
  if (pid < 0) return "child failed: no fork";
  if (pid == 0) {
    ::close(fds[0]);
    std::string out;
    if (::geteuid() == 0 && (::setgroups(0, nullptr) != 0 || ::setresgid(kNobody, kNobody, kNobody) != 0 ||
                             ::setresuid(kNobody, kNobody, kNobody) != 0))
      out = "child failed: cannot drop root";
    else
      out = check();
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) return "child failed: it did not exit";
  return got;
}

}  // namespace gpulab::testing
