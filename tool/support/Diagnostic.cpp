//===- Diagnostic.cpp -----------------------------------------------------===//
#include "support/Diagnostic.h"

namespace metacu {

char LocatedError::ID;

void printDiagnostic(llvm::raw_ostream &OS, const SourceFile &File,
                     unsigned Offset, llvm::StringRef Severity,
                     llvm::StringRef Message) {
  LineCol LC = File.lineCol(Offset);
  OS << File.path() << ':' << LC.Line << ':' << LC.Col << ": " << Severity
     << ": " << Message << '\n';
  llvm::StringRef Line = File.lineText(Offset);
  OS << Line << '\n';
  // Tabs in the source line are kept under the caret so it lines up.
  std::string Caret;
  for (unsigned I = 0; I + 1 < LC.Col && I < Line.size(); ++I)
    Caret += Line[I] == '\t' ? '\t' : ' ';
  OS << Caret << "^\n";
}

bool reportError(llvm::raw_ostream &OS, const SourceFile &File,
                 llvm::Error Err) {
  bool Printed = false;
  llvm::handleAllErrors(
      std::move(Err),
      [&](const LocatedError &E) {
        printDiagnostic(OS, File, E.offset(), "error", E.text());
        Printed = true;
      },
      [&](const llvm::ErrorInfoBase &E) {
        std::string Msg = E.message();
        // Messages already printed by a diagnostic consumer come back empty.
        if (!Msg.empty()) {
          OS << "metacu: error: " << Msg << '\n';
          Printed = true;
        }
      });
  return Printed;
}

} // namespace metacu
