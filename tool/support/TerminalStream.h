//===- TerminalStream.h - Text from files, made safe for a terminal -------===//
//
// A run's summary prints what files say: a Kernel Tuner cache's device
// name, a compiler's message kept in a journal, a parameter's string value.
// A hostile or damaged file could hold control characters there (an escape
// sequence that moves the cursor, recolours or retitles the terminal, or a
// carriage return that hides the line before it). Written through this
// stream they show as escapes instead.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_TERMINALSTREAM_H
#define METACU_SUPPORT_TERMINALSTREAM_H

#include "llvm/Support/raw_ostream.h"

namespace metacu {

/// Writes to another stream with each control character but newline and
/// tab spelled "\x1b", and each C1 control (U+0080-U+009F, which some
/// terminals obey in UTF-8) spelled "\u009b". Every other byte, UTF-8
/// included, passes as it is.
class TerminalStream : public llvm::raw_ostream {
public:
  explicit TerminalStream(llvm::raw_ostream &To) : To(To) { SetUnbuffered(); }
  ~TerminalStream() override;

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Written; }

  llvm::raw_ostream &To;
  uint64_t Written = 0;
  /// A 0xC2 that ended the last write: whether it starts a C1 control
  /// depends on the next byte.
  bool PendingC2 = false;
};

} // namespace metacu

#endif
