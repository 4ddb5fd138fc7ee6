//===- Worker.h - One task at a time off the server's thread --------------===//
//
// Expanding a dialect file takes seconds (Clang parses, the generator
// compiled and run). On the thread that reads the editor's messages, it
// would hold every answer meanwhile, an edit of ordinary code applied to
// the expansion at once among them. The server hands it to a worker: one
// task at a time on a thread of its own, and a file descriptor the
// server's poll loop watches, readable once the task is done.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_WORKER_H
#define METACU_LSP_WORKER_H

#include "llvm/ADT/FunctionExtras.h"
#include <condition_variable>
#include <mutex>
#include <thread>

namespace metacu {

class Worker {
public:
  Worker();
  /// Waits for the task running, if any.
  ~Worker();
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  /// Whether a task was given and finished() has not yet taken it back.
  bool busy() const { return Busy; }
  /// Runs \p Task on the worker's thread; only when not busy().
  void run(llvm::unique_function<void()> Task);
  /// Readable once the task has finished.
  int doneFd() const { return Done[0]; }
  /// Whether the task given has finished (what it wrote is then the
  /// caller's to read); the worker is free again. Call it when doneFd()
  /// is readable.
  bool finished();

private:
  void loop();

  int Done[2] = {-1, -1};
  bool Busy = false;
  std::mutex Lock;
  std::condition_variable Wake;
  llvm::unique_function<void()> Task;
  bool Stop = false;
  std::thread Thread;
};

} // namespace metacu

#endif
