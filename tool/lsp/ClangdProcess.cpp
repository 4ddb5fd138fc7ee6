//===- ClangdProcess.cpp --------------------------------------------------===//
#include "lsp/ClangdProcess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace metacu {

llvm::Expected<std::string> findClangd(llvm::StringRef Given) {
  if (!Given.empty()) {
    if (auto P = llvm::sys::findProgramByName(Given))
      return *P;
    return llvm::createStringError("--clangd: '" + Given +
                                   "' is no program that can be run");
  }
  if (const char *Env = std::getenv("METACU_CLANGD"); Env && *Env) {
    if (auto P = llvm::sys::findProgramByName(Env))
      return *P;
    return llvm::createStringError("METACU_CLANGD: '" + llvm::StringRef(Env) +
                                   "' is no program that can be run");
  }
  if (auto P = llvm::sys::findProgramByName("clangd-22"))
    return *P;
  if (llvm::sys::fs::can_execute("/usr/lib/llvm-22/bin/clangd"))
    return std::string("/usr/lib/llvm-22/bin/clangd");
  return llvm::createStringError(
      "clangd 22 not found (tried --clangd, $METACU_CLANGD, clangd-22 on "
      "PATH, /usr/lib/llvm-22/bin/clangd); install it with 'apt-get install "
      "clangd-22'");
}

llvm::Error ClangdProcess::start(llvm::StringRef Program,
                                 llvm::ArrayRef<std::string> Args) {
  int ToChild[2], FromChild[2];
  if (pipe2(ToChild, O_CLOEXEC) != 0)
    return llvm::errorCodeToError(
        std::error_code(errno, std::generic_category()));
  if (pipe2(FromChild, O_CLOEXEC) != 0) {
    int E = errno;
    close(ToChild[0]);
    close(ToChild[1]);
    return llvm::errorCodeToError(std::error_code(E, std::generic_category()));
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, ToChild[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, FromChild[1], STDOUT_FILENO);
  std::string Path = Program.str();
  std::vector<char *> Argv{Path.data()};
  std::vector<std::string> Copies(Args.begin(), Args.end());
  for (std::string &A : Copies)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  int Err =
      posix_spawn(&Pid, Path.c_str(), &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(ToChild[0]);
  close(FromChild[1]);
  if (Err) {
    close(ToChild[1]);
    close(FromChild[0]);
    Pid = -1;
    return llvm::createStringError("cannot start '" + Path +
                                   "': " + std::strerror(Err));
  }
  In = ToChild[1];
  Out = FromChild[0];
  // A clangd that died must not take the server with it.
  std::signal(SIGPIPE, SIG_IGN);
  return llvm::Error::success();
}

/// How long clangd may take to end once told to.
constexpr std::chrono::seconds ExitGrace{5};

int ClangdProcess::wait() {
  if (In >= 0) {
    close(In);
    In = -1;
  }
  int Status = 0;
  if (Pid > 0) {
    // clangd finishes the file its background index is reading before it
    // ends, which on a loaded machine took over 30 s; the editor waits for
    // the server meanwhile. What it would still write to its index is
    // redone at its next start.
    auto Deadline = std::chrono::steady_clock::now() + ExitGrace;
    pid_t Ended;
    while ((Ended = waitpid(Pid, &Status, WNOHANG)) == 0 ||
           (Ended < 0 && errno == EINTR)) {
      if (std::chrono::steady_clock::now() >= Deadline) {
        kill(Pid, SIGKILL);
        while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
          ;
        break;
      }
      usleep(20000);
    }
    Pid = -1;
  }
  if (Out >= 0) {
    close(Out);
    Out = -1;
  }
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
}

ClangdProcess::~ClangdProcess() {
  if (Pid > 0)
    kill(Pid, SIGTERM);
  wait();
}

} // namespace metacu
