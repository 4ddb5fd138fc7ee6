//===- Isolation.cpp ------------------------------------------------------===//
#include "support/Isolation.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <new>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace metacu {

// Written by the child after its output: the parent tells a child that
// finished from one that called exit() part-way through.
static constexpr llvm::StringLiteral Finished = "\0metacu-finished\n";

std::string IsolationFailure::describe(const IsolationLimits &Limits) const {
  switch (K) {
  case Exit:
    return "meta code ended the process (exit status " + std::to_string(Code) +
           ") before the expansion finished";
  case Timeout:
    return "meta code ran longer than " +
           llvm::formatv("{0}", llvm::format("%g", Limits.TimeoutSeconds))
               .str() +
           " s (--meta-timeout raises the limit)";
  case Signal:
    break;
  }
  const char *Name = "";
  switch (Code) {
  case SIGSEGV:
    Name = "segmentation fault (SIGSEGV): a bad pointer or a runaway "
           "recursion";
    break;
  case SIGBUS:
    Name = "bus error (SIGBUS)";
    break;
  case SIGILL:
    Name = "illegal instruction (SIGILL): a function that returns a value "
           "fell off its end, or a trap";
    break;
  case SIGFPE:
    Name = "arithmetic exception (SIGFPE): an integer division by zero or "
           "overflow";
    break;
  case SIGABRT:
    Name = "abort (SIGABRT)";
    break;
  case SIGTRAP:
    Name = "trap (SIGTRAP)";
    break;
  case SIGKILL:
    Name = "killed (SIGKILL), perhaps for using too much memory";
    break;
  default:
    return "meta code was killed by signal " + std::to_string(Code);
  }
  return std::string("meta code crashed: ") + Name;
}

/// VmData of this process: what RLIMIT_DATA counts against.
static uint64_t dataBytesInUse() {
  auto Status = llvm::MemoryBuffer::getFileAsStream("/proc/self/status");
  if (!Status)
    return 0;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Status)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.consume_front("VmData:")) {
      uint64_t KiB = 0;
      L.trim().split(' ').first.getAsInteger(10, KiB);
      return KiB * 1024;
    }
  return 0;
}

/// Child side: the default fate for fatal signals (LLVM's handlers would
/// print a compiler crash report), no core files, allocations that fail
/// with std::bad_alloc rather than LLVM's out-of-memory abort.
static void prepareChild(const IsolationLimits &Limits) {
  for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS})
    std::signal(Sig, SIG_DFL);
  struct rlimit NoCore = {0, 0};
  setrlimit(RLIMIT_CORE, &NoCore);
  if (Limits.MemoryBytes) {
    rlim_t Cap = dataBytesInUse() + Limits.MemoryBytes;
    struct rlimit Data = {Cap, Cap};
    setrlimit(RLIMIT_DATA, &Data);
  }
  std::set_new_handler(nullptr);
}

static llvm::Error systemError(const char *What) {
  return llvm::createStringError(
      std::error_code(errno, std::generic_category()),
      "cannot run meta code: %s: %s", What, std::strerror(errno));
}

llvm::Expected<IsolationResult> runIsolated(
    llvm::function_ref<void(llvm::raw_ostream &, volatile uint64_t &)> Body,
    const IsolationLimits &Limits) {
  void *Shared = mmap(nullptr, sizeof(uint64_t), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (Shared == MAP_FAILED)
    return systemError("mmap");
  auto *Progress = static_cast<volatile uint64_t *>(Shared);
  *Progress = 0;
  auto Unmap = llvm::make_scope_exit([&] { munmap(Shared, sizeof(uint64_t)); });

  int Pipe[2];
  if (pipe(Pipe) != 0)
    return systemError("pipe");
  // Buffered output would otherwise be written twice, once by each process.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  pid_t Child = fork();
  if (Child < 0) {
    close(Pipe[0]);
    close(Pipe[1]);
    return systemError("fork");
  }
  if (Child == 0) {
    close(Pipe[0]);
    prepareChild(Limits);
    {
      llvm::raw_fd_ostream Out(Pipe[1], /*shouldClose=*/false);
      Body(Out, *Progress);
      Out << Finished;
      Out.flush();
    }
    std::fflush(nullptr);
    // Skip static destructors and atexit handlers: they are the parent's.
    _exit(0);
  }
  close(Pipe[1]);

  IsolationResult R;
  std::optional<IsolationFailure> Failure;
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(Limits.TimeoutSeconds);
  char Buf[65536];
  while (true) {
    int Wait = -1;
    if (Limits.TimeoutSeconds > 0) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
          Deadline - std::chrono::steady_clock::now());
      if (Left.count() <= 0) {
        kill(Child, SIGKILL);
        Failure = IsolationFailure{IsolationFailure::Timeout, 0, 0};
        break;
      }
      Wait = int(std::min<int64_t>(Left.count(), 1000));
    }
    struct pollfd P = {Pipe[0], POLLIN, 0};
    int N = poll(&P, 1, Wait);
    if (N < 0 && errno == EINTR)
      continue;
    if (N == 0)
      continue;
    ssize_t Got = read(Pipe[0], Buf, sizeof Buf);
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got <= 0)
      break;
    R.Output.append(Buf, size_t(Got));
  }
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR)
    ;
  if (!Failure) {
    if (WIFSIGNALED(Status))
      Failure = IsolationFailure{IsolationFailure::Signal, WTERMSIG(Status), 0};
    else if (!llvm::StringRef(R.Output).ends_with(Finished))
      Failure =
          IsolationFailure{IsolationFailure::Exit,
                           WIFEXITED(Status) ? WEXITSTATUS(Status) : -1, 0};
  }
  if (Failure) {
    Failure->Progress = *Progress;
    R.Failure = Failure;
  } else {
    R.Output.resize(R.Output.size() - Finished.size());
  }
  return R;
}

} // namespace metacu
