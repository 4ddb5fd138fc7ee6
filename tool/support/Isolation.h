//===- Isolation.h - Running user code where it cannot take metacu down ---===//
//
// Meta code is the user's C++, run at build time. A null dereference, an
// abort, a call to exit(), an endless loop or a runaway allocation in it
// must end in an error at the user's line, not in a crashed, hung or
// silently successful build. So it runs in a child process with a time and
// a memory limit; the parent learns how it ended, and from a word of memory
// the two share, which statement was running when it did.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_ISOLATION_H
#define METACU_SUPPORT_ISOLATION_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>
#include <string>

namespace metacu {

struct IsolationLimits {
  /// Wall-clock seconds the child may run; 0 for no limit.
  double TimeoutSeconds = 0;
  /// Bytes of data the child may allocate beyond what it starts with; 0 for
  /// no limit. Past it allocations fail (operator new throws std::bad_alloc,
  /// which the child's code may catch).
  uint64_t MemoryBytes = 0;
};

/// How the child ended, when it did not finish normally.
struct IsolationFailure {
  enum Kind {
    Signal,  // killed by a signal (a crash, abort(), a trap)
    Exit,    // called exit() (or returned from main) before finishing
    Timeout, // ran past IsolationLimits::TimeoutSeconds and was killed
  } K = Signal;
  int Code = 0; // the signal or the exit status
  /// What the child had reported when it ended (see runIsolated).
  uint64_t Progress = 0;

  /// "segmentation fault (SIGSEGV)", "called exit(0)", ...
  std::string describe(const IsolationLimits &Limits) const;
};

struct IsolationResult {
  /// What the child wrote to its output stream; complete when it finished.
  std::string Output;
  /// Set when the child did not finish normally.
  std::optional<IsolationFailure> Failure;
};

/// Runs \p Body in a child process. \p Body writes its result to the stream
/// it is given and may report its progress (for metacu: the input offset of
/// the statement it is running) through the word it is given, which the
/// parent reads if the child dies. Errors are about the isolation itself
/// (no fork, no pipe); how the child ended is in the result.
llvm::Expected<IsolationResult>
runIsolated(llvm::function_ref<void(llvm::raw_ostream &Out,
                                    volatile uint64_t &Progress)>
                Body,
            const IsolationLimits &Limits);

} // namespace metacu

#endif
