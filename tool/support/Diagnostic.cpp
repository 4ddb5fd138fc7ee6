//===- Diagnostic.cpp -----------------------------------------------------===//
#include "support/Diagnostic.h"

namespace metacu {

char LocatedError::ID;
char SourceError::ID;

SourceError::SourceError(const SourceFile &File, unsigned Offset,
                         std::string Message, std::string Severity)
    : SourceError(File.origin(Offset).Path.str(), File.origin(Offset).Where,
                  File.lineText(Offset).str(), std::move(Message),
                  std::move(Severity), File.origin(Offset).IncludedAt) {}

void SourceError::log(llvm::raw_ostream &OS) const {
  OS << Path;
  // Line 0: about the file as a whole.
  if (Where.Line)
    OS << ':' << Where.Line << ':' << Where.Col;
  OS << ": " << Severity << ": " << Message;
  if (!LineText)
    return;
  OS << '\n' << *LineText << '\n';
  // Tabs in the source line are kept under the caret so it lines up.
  std::string Caret;
  for (unsigned I = 0; I + 1 < Where.Col && I < LineText->size(); ++I)
    Caret += (*LineText)[I] == '\t' ? '\t' : ' ';
  OS << Caret << '^';
}

llvm::Error locate(const SourceFile &File, llvm::Error Err) {
  return llvm::handleErrors(
      std::move(Err), [&](const LocatedError &E) -> llvm::Error {
        return llvm::make_error<SourceError>(File, E.offset(), E.text());
      });
}

llvm::StringRef optionBehindBuffer(llvm::StringRef File) {
  if (File == "<built-in>")
    return "-include";
  if (File == "<command line>")
    return "-D or -U";
  return {};
}

bool printErrors(llvm::raw_ostream &OS, llvm::Error Err) {
  bool Printed = false;
  llvm::handleAllErrors(
      std::move(Err),
      [&](const SourceError &E) {
        E.log(OS);
        OS << '\n';
        Printed = true;
      },
      [&](const llvm::ErrorInfoBase &E) {
        std::string Msg = E.message();
        // An empty message says nothing worth a line.
        if (!Msg.empty()) {
          OS << "metacu: error: " << Msg << '\n';
          Printed = true;
        }
      });
  return Printed;
}

} // namespace metacu
