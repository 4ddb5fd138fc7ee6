//===- ForkServer.cpp -----------------------------------------------------===//
#include "support/ForkServer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace metacu {

namespace {

/// This process's ends of every server's socket: a server forked later
/// closes them, or it would keep an earlier one from ever reading the end
/// of its requests.
struct OpenEnds {
  std::mutex Lock;
  std::vector<int> Sockets;
};

OpenEnds &openEnds() {
  static auto *Ends = new OpenEnds;
  return *Ends;
}

bool writeAll(int FD, const char *P, size_t N) {
  while (N) {
    // MSG_NOSIGNAL: a peer that has ended is an error here, not SIGPIPE.
    ssize_t Put = send(FD, P, N, MSG_NOSIGNAL);
    if (Put < 0 && errno == EINTR)
      continue;
    if (Put <= 0)
      return false;
    P += Put;
    N -= size_t(Put);
  }
  return true;
}

bool readAll(int FD, char *P, size_t N) {
  while (N) {
    ssize_t Got = recv(FD, P, N, 0);
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got <= 0)
      return false;
    P += Got;
    N -= size_t(Got);
  }
  return true;
}

/// A message: its length, then its bytes.
bool writeMessage(int FD, llvm::StringRef M) {
  uint64_t N = M.size();
  return writeAll(FD, reinterpret_cast<const char *>(&N), sizeof N) &&
         writeAll(FD, M.data(), M.size());
}

bool readMessage(int FD, std::string &M) {
  uint64_t N;
  if (!readAll(FD, reinterpret_cast<char *>(&N), sizeof N))
    return false;
  M.resize(N);
  return readAll(FD, M.data(), N);
}

llvm::Error systemError(const char *What) {
  return llvm::createStringError(
      std::error_code(errno, std::generic_category()),
      "cannot keep a copy of the process: %s: %s", What, std::strerror(errno));
}

/// The child's side: never returns.
[[noreturn]] void serve(int Socket, llvm::function_ref<bool()> Prepare,
                        std::function<std::string(llvm::StringRef)> &Answer) {
  for (int S : openEnds().Sockets)
    close(S);
  // A server this copy starts must not close what the numbers name then.
  openEnds().Sockets.clear();
  // This process's stdin and stdout may be a protocol's (metacu lsp's):
  // the copy neither reads nor writes them.
  int Null = open("/dev/null", O_RDONLY);
  if (Null >= 0) {
    dup2(Null, 0);
    close(Null);
  }
  dup2(2, 1);
  char Ready = Prepare() ? '1' : '0';
  if (!writeAll(Socket, &Ready, 1) || Ready != '1')
    _exit(0);
  std::string Request;
  while (readMessage(Socket, Request))
    if (!writeMessage(Socket, Answer(Request)))
      break;
  std::fflush(nullptr);
  // Skip static destructors and atexit handlers: they are the parent's.
  _exit(0);
}

} // namespace

llvm::Expected<std::unique_ptr<ForkServer>>
ForkServer::start(llvm::function_ref<bool()> Prepare,
                  std::function<std::string(llvm::StringRef)> Answer) {
  int Pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) != 0)
    return systemError("socketpair");
  // Buffered output would otherwise be written twice, once by each process.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  pid_t Child;
  {
    std::unique_lock<std::mutex> Hold(openEnds().Lock);
    Child = fork();
    if (Child == 0) {
      close(Pair[0]);
      // Where the copy starts servers of its own (a copy of the copy).
      Hold.unlock();
      serve(Pair[1], Prepare, Answer);
    }
    if (Child > 0)
      openEnds().Sockets.push_back(Pair[0]);
  }
  close(Pair[1]);
  if (Child < 0) {
    close(Pair[0]);
    return systemError("fork");
  }
  std::unique_ptr<ForkServer> Server(new ForkServer(Child, Pair[0]));
  char Ready;
  if (!readAll(Pair[0], &Ready, 1))
    return llvm::createStringError(
        "the copy of the process ended before it was ready");
  if (Ready != '1')
    return nullptr;
  return std::move(Server);
}

llvm::Expected<std::string> ForkServer::call(llvm::StringRef Request) {
  std::string Answer;
  if (!writeMessage(Socket, Request) || !readMessage(Socket, Answer))
    return llvm::createStringError("the copy of the process has ended");
  return Answer;
}

ForkServer::~ForkServer() {
  {
    std::lock_guard<std::mutex> Hold(openEnds().Lock);
    llvm::erase(openEnds().Sockets, Socket);
  }
  close(Socket);
  kill(Child, SIGKILL);
  while (waitpid(Child, nullptr, 0) < 0 && errno == EINTR)
    ;
}

} // namespace metacu
