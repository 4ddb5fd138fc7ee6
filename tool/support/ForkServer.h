//===- ForkServer.h - A copy of this process kept to answer requests ------===//
//
// A long-running process (metacu lsp) keeps state that is dear to make and
// cannot be copied in process, an interpreter with what it compiled, and
// sometimes needs it both as it is and with more compiled into it. A fork
// server holds the second: a child forked from this process, which builds
// on its copy of the state once and then answers requests, one at a time,
// each a string, while this process's own state stays as it was.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_FORKSERVER_H
#define METACU_SUPPORT_FORKSERVER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <sys/types.h>

namespace metacu {

class ForkServer {
public:
  /// Forks the server. In the child, \p Prepare runs first; where it
  /// fails (returns false) the child ends and start() returns null. Then
  /// every request is answered by \p Answer, until this process closes its
  /// end or ends. Errors are about the process (no fork, no socket, a child
  /// that ended before it said whether it was prepared).
  static llvm::Expected<std::unique_ptr<ForkServer>>
  start(llvm::function_ref<bool()> Prepare,
        std::function<std::string(llvm::StringRef)> Answer);

  /// The child's answer to \p Request; an error when the child has ended.
  llvm::Expected<std::string> call(llvm::StringRef Request);

  /// Ends the child and waits for it.
  ~ForkServer();

private:
  ForkServer(pid_t Child, int Socket) : Child(Child), Socket(Socket) {}
  pid_t Child;
  /// This process's end of the socket pair the two talk through.
  int Socket;
};

} // namespace metacu

#endif
