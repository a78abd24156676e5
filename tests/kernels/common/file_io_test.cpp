// cpu label: the one rule for the files gpulab reads and writes (common/file_io.h): regular files
// only, no blocking on a FIFO, whole or nothing, no folder created, and a message that says why.
#include "common/file_io.h"
#include "common/temp_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "support/run_binary.h"
#include "support/unprivileged.h"

namespace gpulab::files {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = gpulab::testing::temp_dir("gpulab-file-io") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Files in dir_ other than the ones named: what a write left behind.
  int entries() const {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++n;
    return n;
  }
  fs::path dir_;
};

TEST_F(FileIo, ReadsARegularFileAndALinkToOne) {
  { std::ofstream(dir_ / "a.txt") << "hello"; }
  fs::create_symlink(dir_ / "a.txt", dir_ / "link.txt");
  for (const char* name : {"a.txt", "link.txt"}) {
    const ReadResult r = read_regular_file(dir_ / name, 100);
    ASSERT_EQ(r.error, "") << name;
    EXPECT_EQ(std::string(r.bytes.begin(), r.bytes.end()), "hello") << name;
  }
  const ReadResult empty = read_regular_file(dir_ / "none", 100);
  EXPECT_NE(empty.error.find("No such file"), std::string::npos) << empty.error;
}

TEST_F(FileIo, AFifoWithNoWriterIsRefusedAtOnce) {
  const fs::path fifo = dir_ / "pipe.rle";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const ReadResult r = read_regular_file(fifo, 100);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(r.error.find("FIFO"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("not a regular file"), std::string::npos) << r.error;
  EXPECT_LT(s, 1.0) << "the reader waited for a writer";
}

TEST_F(FileIo, FoldersAndDevicesAreRefused) {
  EXPECT_NE(read_regular_file(dir_, 100).error.find("a folder"), std::string::npos);
  EXPECT_NE(read_regular_file("/dev/null", 100).error.find("a character device"), std::string::npos);
}

TEST_F(FileIo, AFileLargerThanTheCapIsRefusedBeforeItIsRead) {
  { std::ofstream(dir_ / "big") << std::string(2048, 'x'); }
  const ReadResult r = read_regular_file(dir_ / "big", 1024);
  EXPECT_TRUE(r.bytes.empty());
  EXPECT_NE(r.error.find("2 KiB"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("1 KiB"), std::string::npos) << r.error;
  EXPECT_EQ(read_regular_file(dir_ / "big", 2048).bytes.size(), 2048u);
}

TEST_F(FileIo, WritesANewFileWholeAndLeavesNoTemporaryFile) {
  ASSERT_EQ(write_regular_file(dir_ / "out.txt", std::string_view("one")), "");
  EXPECT_EQ(slurp(dir_ / "out.txt"), "one");
  ASSERT_EQ(write_regular_file(dir_ / "out.txt", std::string_view("two!")), "");
  EXPECT_EQ(slurp(dir_ / "out.txt"), "two!");
  EXPECT_EQ(entries(), 1);
  // The usual permissions (0666 less the umask), not mkstemp's 0600.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "out.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_F(FileIo, ASpecialFileIsNeverReplaced) {
  const fs::path fifo = dir_ / "shot.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string why = write_regular_file(fifo, std::string_view("png"));
  EXPECT_NE(why.find("FIFO"), std::string::npos) << why;
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo))) << "the FIFO was replaced";
  EXPECT_NE(write_regular_file("/dev/null", std::string_view("x")).find("a character device"),
            std::string::npos);
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_NE(write_regular_file(dir_, std::string_view("x")).find("a folder"), std::string::npos);
  // A link to a device is refused too, and stays a link.
  fs::create_symlink("/dev/null", dir_ / "null-link");
  EXPECT_NE(write_regular_file(dir_ / "null-link", std::string_view("x")).find("character device"),
            std::string::npos);
  EXPECT_TRUE(fs::is_symlink(dir_ / "null-link"));
  EXPECT_EQ(entries(), 2);
  EXPECT_EQ(check_writable(fifo), write_regular_file(fifo, std::string_view("png")));
}

TEST_F(FileIo, ALinkIsWrittenThroughAndKept) {
  { std::ofstream(dir_ / "target.rle") << "old"; }
  fs::create_symlink("target.rle", dir_ / "link.rle");
  ASSERT_EQ(write_regular_file(dir_ / "link.rle", std::string_view("new")), "");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.rle"));
  EXPECT_EQ(slurp(dir_ / "target.rle"), "new");
}

TEST_F(FileIo, AMissingFolderIsNamedAndNotCreated) {
  const fs::path out = dir_ / "no" / "such" / "out.json";
  const std::string why = write_regular_file(out, std::string_view("{}"));
  EXPECT_NE(why.find((dir_ / "no" / "such").string()), std::string::npos) << why;
  EXPECT_NE(why.find("does not exist"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(dir_ / "no"));
  EXPECT_EQ(check_writable(out), why);
  EXPECT_EQ(check_writable(dir_ / "fresh.png"), "");
  // A path whose folder is a file.
  { std::ofstream(dir_ / "plain") << "x"; }
  EXPECT_NE(write_regular_file(dir_ / "plain" / "x.png", std::string_view("x")).find("not a folder"),
            std::string::npos);
  EXPECT_NE(write_regular_file("", std::string_view("x")).find("empty path"), std::string::npos);
}

TEST_F(FileIo, AnUnwritableFolderGivesTheSystemsReason) {
  if (::geteuid() == 0) {
    // root writes anywhere: a read-only place it cannot write is /proc.
    const std::string why = write_regular_file("/proc/gpulab-test.png", std::string_view("x"));
    EXPECT_NE(why.find("cannot write"), std::string::npos) << why;
    return;
  }
  fs::create_directories(dir_ / "ro");
  fs::permissions(dir_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  const std::string why = write_regular_file(dir_ / "ro" / "x.png", std::string_view("x"));
  fs::permissions(dir_ / "ro", fs::perms::owner_all);
  EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
}

TEST_F(FileIo, AReadOnlyFileIsNotReplaced) {
  // The temporary file used to be renamed over it: renaming needs only the folder's permission.
  const fs::path out = dir_ / "kept.csv";
  { std::ofstream(out) << "old"; }
  fs::permissions(out, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string why = write_regular_file(out, std::string_view("new"));
  EXPECT_NE(why.find("read-only"), std::string::npos) << why;
  EXPECT_EQ(check_writable(out), why);
  EXPECT_EQ(slurp(out), "old");
  EXPECT_EQ(entries(), 1) << "a temporary file left behind";
}

TEST_F(FileIo, AnUnwritableFolderIsFoundByTheUpFrontCheck) {
  // As a normal user (nobody, when the tests run as root): the check before the work used to pass
  // and the write after it fail ("cannot create a temporary file beside it").
  fs::create_directories(dir_ / "ro");
  fs::permissions(dir_, fs::perms::all);
  fs::permissions(dir_ / "ro", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                   fs::perms::others_read | fs::perms::others_exec);
  const fs::path out = dir_ / "ro" / "x.png";
  const std::string why = gpulab::testing::as_unprivileged([&] { return check_writable(out); });
  EXPECT_EQ(why.rfind("child failed", 0), std::string::npos) << why;
  if (::geteuid() == 0) {
    EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
    EXPECT_NE(why.find((dir_ / "ro" / "x.png").string()), std::string::npos) << why;
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "ro")) << "the trial file must not stay";
}

TEST_F(FileIo, ANameOfTheLongestLegalLengthCanBeWritten) {
  // 254 bytes plus ".tmp-XXXXXX" was past NAME_MAX: the check passed, the write failed.
  const fs::path out = dir_ / (std::string(250, 'n') + ".csv");
  ASSERT_EQ(out.filename().string().size(), 254u);
  EXPECT_EQ(check_writable(out), "");
  EXPECT_EQ(write_regular_file(out, std::string_view("x")), "");
  EXPECT_EQ(slurp(out), "x");
  EXPECT_EQ(entries(), 1) << "a temporary file left behind";
}

TEST_F(FileIo, ControlBytesInAPathAreEscapedInTheMessage) {
  const fs::path out = dir_ / "missing\x1B[2J" / "x.png";
  const std::string why = write_regular_file(out, std::string_view("x"));
  EXPECT_NE(why.find("\\x1B[2J"), std::string::npos) << why;
  EXPECT_EQ(why.find('\x1B'), std::string::npos);
}

// A signal in the middle of a write (SIGTERM during a 120 MB --save-c left a hidden .gpulab-tmp-*):
// the handler removes the temporary file and the signal then ends the process as before; the target is
// neither made nor replaced. In a child, which a watcher thread signals as soon as the temporary file
// is there, while 128 MiB (of zero pages, no memory) are being written.
TEST(WriteRegularFile, ASignalMidWriteLeavesNoTemporaryFile) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-write-signal");
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    SCOPED_TRACE(sig);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path target = dir / "c.npy";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const struct rlimit no_core { 0, 0 };
      ::setrlimit(RLIMIT_CORE, &no_core);  // SIGQUIT's default action dumps core
      const size_t n = size_t(128) << 20;
      void* zeros = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (zeros == MAP_FAILED) ::_exit(3);
      std::thread([&dir, sig] {
        for (int i = 0; i < 20000; ++i) {
          for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().rfind(".gpulab-tmp-", 0) == 0) {
              ::kill(::getpid(), sig);
              return;
            }
          ::usleep(100);
        }
      }).detach();
      (void)write_regular_file(target, std::span<const uint8_t>(static_cast<const uint8_t*>(zeros), n));
      ::_exit(4);  // the write ended before the signal came: the test below fails
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_FALSE(fs::exists(target));
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
    EXPECT_TRUE(left.empty()) << left.front();
  }
  fs::remove_all(dir);
}

// The handler is installed only where a signal's action is the default one: one the app handles, or
// ignores, stays as it was; registering again after the app put the default back installs it again.
TEST(TempFiles, TheHandlerTakesOnlyDefaultActions) {
  struct sigaction before {};
  ::sigaction(SIGHUP, nullptr, &before);
  std::signal(SIGHUP, SIG_IGN);
  int slot = register_temp("/nonexistent/gpulab-temp-files-test");
  EXPECT_GE(slot, 0);
  struct sigaction now {};
  ::sigaction(SIGHUP, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_IGN);
  unregister_temp(slot);
  EXPECT_EQ(slot, -1);
  std::signal(SIGHUP, SIG_DFL);
  {
    TempRegistration r("/nonexistent/gpulab-temp-files-test");
    ::sigaction(SIGHUP, nullptr, &now);
    EXPECT_NE(now.sa_handler, SIG_DFL);
    EXPECT_NE(now.sa_handler, SIG_IGN);
  }
  ::sigaction(SIGHUP, &before, nullptr);
}

}  // namespace
}  // namespace gpulab::files
