//===- Worker.cpp ---------------------------------------------------------===//
#include "lsp/Worker.h"

#include "llvm/Support/ErrorHandling.h"
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace metacu {

Worker::Worker() {
  // Without the pipe no task would ever be seen done: the server would
  // wait forever. It is made at the server's start, so say so there.
  if (pipe2(Done, O_CLOEXEC) != 0)
    llvm::report_fatal_error("metacu lsp: cannot create a pipe for the "
                             "worker thread");
  fcntl(Done[0], F_SETFL, O_NONBLOCK);
  Thread = std::thread([this] { loop(); });
}

Worker::~Worker() {
  {
    std::lock_guard<std::mutex> G(Lock);
    Stop = true;
  }
  Wake.notify_one();
  Thread.join();
  for (int Fd : Done)
    close(Fd);
}

void Worker::run(llvm::unique_function<void()> T) {
  Busy = true;
  {
    std::lock_guard<std::mutex> G(Lock);
    Task = std::move(T);
  }
  Wake.notify_one();
}

bool Worker::finished() {
  char Byte;
  ssize_t Got;
  while ((Got = read(Done[0], &Byte, 1)) < 0 && errno == EINTR)
    ;
  if (Got != 1)
    return false;
  Busy = false;
  return true;
}

void Worker::loop() {
  for (;;) {
    llvm::unique_function<void()> T;
    {
      std::unique_lock<std::mutex> G(Lock);
      Wake.wait(G, [this] { return Stop || Task; });
      if (Stop)
        return;
      T = std::move(Task);
      Task = nullptr;
    }
    T();
    // The byte that says so; what the task wrote is visible to whoever
    // reads it (the pipe orders the two).
    char Byte = 1;
    while (write(Done[1], &Byte, 1) < 0 && errno == EINTR)
      ;
  }
}

} // namespace metacu
