//===- QuietPragmas.cpp ---------------------------------------------------===//
#include "migrate/QuietPragmas.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

using namespace clang;

namespace metacu {

namespace {

/// Whether the warning group \p Group holds none of the preprocessor's
/// diagnostics; a group Clang does not know is ignored, so it holds none.
bool holdsNoPreprocessorDiagnostic(llvm::StringRef Group,
                                   const DiagnosticIDs &IDs) {
  llvm::SmallVector<diag::kind, 64> Diags;
  if (IDs.getDiagnosticsInGroup(diag::Flavor::WarningOrError, Group, Diags))
    return true;
  return llvm::none_of(Diags, [](diag::kind D) {
    return D >= diag::DIAG_START_LEX && D < diag::DIAG_START_PARSE;
  });
}

/// The text of the plain string literal \p Spelling as _Pragma
/// destringizes it; none for any other literal.
std::optional<std::string> destringize(llvm::StringRef Spelling) {
  if (Spelling.size() < 2 || !Spelling.starts_with("\"") ||
      !Spelling.ends_with("\""))
    return std::nullopt;
  std::string Text;
  llvm::StringRef Body = Spelling.drop_front().drop_back();
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] == '\\' && I + 1 < Body.size() &&
        (Body[I + 1] == '\\' || Body[I + 1] == '"'))
      ++I;
    Text += Body[I];
  }
  return Text;
}

} // namespace

bool isQuietPragma(llvm::StringRef Text, const DiagnosticIDs &IDs) {
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Text.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (Words.empty())
    return false;
  // The pragmas nvcc 13 reads that Clang's preprocessor does not know
  // (it ignores them): those of the CUDA C++ Programming Guide (unroll,
  // nv_diag_suppress/_remark/_warning/_error/_once/_default, nv_diagnostic
  // push/pop, nv_abi) and the others in the pragma table of CUDA 13.0's
  // front end (`strings bin/cudafe++`: nv_exec_check_disable, which CCCL's
  // _CCCL_EXEC_CHECK_DISABLE spells, and hd_warning_disable); the diag_*
  // spellings of EDG-based compilers, which vector_types.h still writes;
  // and Clang's nounroll, whose loop hint only the parser reads.
  static const llvm::StringRef Unknown[] = {"unroll",
                                            "nounroll",
                                            "nv_diagnostic",
                                            "nv_diag_suppress",
                                            "nv_diag_remark",
                                            "nv_diag_warning",
                                            "nv_diag_error",
                                            "nv_diag_once",
                                            "nv_diag_default",
                                            "nv_abi",
                                            "diag_suppress",
                                            "diag_remark",
                                            "diag_default",
                                            "diag_warning",
                                            "diag_error",
                                            "diag_once",
                                            "nv_exec_check_disable",
                                            "hd_warning_disable"};
  if (llvm::is_contained(Unknown, Words[0]))
    return true;
  if (Words.size() < 3 || (Words[0] != "GCC" && Words[0] != "clang") ||
      Words[1] != "diagnostic")
    return false;
  if (Words[2] == "push" || Words[2] == "pop")
    return true;
  static const llvm::StringRef Mappings[] = {"ignored", "warning", "error",
                                             "fatal"};
  if (Words.size() != 4 || !llvm::is_contained(Mappings, Words[2]))
    return false;
  llvm::StringRef Option = Words[3];
  if (!Option.consume_front("\"-W") || !Option.consume_back("\""))
    return false;
  return holdsNoPreprocessorDiagnostic(Option, IDs);
}

bool isQuietPragmaOperator(llvm::ArrayRef<clang::Token> Body, size_t At,
                           const Preprocessor &PP) {
  if (At + 3 >= Body.size() || !Body[At + 1].is(tok::l_paren) ||
      !Body[At + 2].is(tok::string_literal) || !Body[At + 3].is(tok::r_paren))
    return false;
  llvm::SmallString<64> Buffer;
  bool Invalid = false;
  llvm::StringRef Spelling = PP.getSpelling(Body[At + 2], Buffer, &Invalid);
  if (Invalid)
    return false;
  std::optional<std::string> Text = destringize(Spelling);
  return Text && isQuietPragma(*Text, *PP.getDiagnostics().getDiagnosticIDs());
}

} // namespace metacu
