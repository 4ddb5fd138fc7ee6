//===- Diagnostic.h - Errors located in the user's file -------------------===//
//
// Stages report failures as llvm::Error values carrying a byte offset into
// the input. The front end prints them Clang-style:
//   kernel.cu:14:7: error: message
//     <source line>
//     ^
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_DIAGNOSTIC_H
#define METACU_SUPPORT_DIAGNOSTIC_H

#include "support/SourceFile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace metacu {

/// An error at a byte offset of the input file.
class LocatedError : public llvm::ErrorInfo<LocatedError> {
public:
  static char ID;
  LocatedError(unsigned Offset, std::string Message)
      : Offset(Offset), Message(std::move(Message)) {}

  unsigned offset() const { return Offset; }
  const std::string &text() const { return Message; }

  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  unsigned Offset;
  std::string Message;
};

inline llvm::Error errorAt(unsigned Offset, const llvm::Twine &Message) {
  return llvm::make_error<LocatedError>(Offset, Message.str());
}

/// Prints one diagnostic at \p Offset of \p File, with its line and a caret.
void printDiagnostic(llvm::raw_ostream &OS, const SourceFile &File,
                     unsigned Offset, llvm::StringRef Severity,
                     llvm::StringRef Message);

/// Prints \p Err: located errors at their place in \p File, others as
/// "metacu: error: ...". Returns true if anything was printed.
bool reportError(llvm::raw_ostream &OS, const SourceFile &File,
                 llvm::Error Err);

} // namespace metacu

#endif
