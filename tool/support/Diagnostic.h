//===- Diagnostic.h - Errors located in the user's file -------------------===//
//
// Stages report failures as llvm::Error values carrying a byte offset into
// the input (LocatedError). Whoever holds the input turns them into
// SourceErrors, which carry their path, line, column and source line, so
// the front end can print them without the input, Clang-style:
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
#include <optional>
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

/// A diagnostic at a line and column of a file, with all it needs to be
/// printed.
class SourceError : public llvm::ErrorInfo<SourceError> {
public:
  static char ID;
  /// \p LineText is the source line, printed with a caret under \p Col;
  /// none for a place whose text is not at hand (a system header's). Line 0
  /// is the file as a whole ("path: error: ...").
  /// \p IncludedAt: includedAt().
  SourceError(std::string Path, LineCol Where,
              std::optional<std::string> LineText, std::string Message,
              std::string Severity = "error", unsigned IncludedAt = 0)
      : Path(std::move(Path)), Where(Where), LineText(std::move(LineText)),
        Message(std::move(Message)), Severity(std::move(Severity)),
        IncludedAt(IncludedAt) {}

  /// \p Message at \p Offset of \p File.
  SourceError(const SourceFile &File, unsigned Offset, std::string Message,
              std::string Severity = "error");

  llvm::StringRef path() const { return Path; }
  LineCol where() const { return Where; }
  /// For a place in a header the input's expansion read in (a dialect
  /// header spliced in, Origin::IncludedAt): the line of the input's own
  /// #include that reads it, where an editor showing the input puts the
  /// error. 0 where the error is in the input itself or that is unknown.
  /// The printed diagnostic does not show it.
  unsigned includedAt() const { return IncludedAt; }
  const std::string &text() const { return Message; }
  /// "error", "warning" or "note".
  const std::string &severity() const { return Severity; }

  /// The whole diagnostic, as Clang prints it, without a final newline.
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Path;
  LineCol Where;
  std::optional<std::string> LineText;
  std::string Message;
  std::string Severity;
  unsigned IncludedAt;
};

/// \p Err with each LocatedError in it made a SourceError of \p File; other
/// errors are kept as they are.
llvm::Error locate(const SourceFile &File, llvm::Error Err);

/// The option behind a place in one of Clang's own buffers ("-include" for
/// <built-in>, where Clang writes the #include lines of -include; "-D or
/// -U" for <command line>), or empty for a file of the user's: an error
/// there means nothing as a place, the option it came from does.
llvm::StringRef optionBehindBuffer(llvm::StringRef File);

/// Prints every error of \p Err: SourceErrors Clang-style, others as
/// "metacu: error: ...". Returns true if anything was printed.
bool printErrors(llvm::raw_ostream &OS, llvm::Error Err);

} // namespace metacu

#endif
