//===- QuietPragmas.cpp ---------------------------------------------------===//
#include "migrate/QuietPragmas.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Lex/MacroInfo.h"
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
  // A pragma's own warning: every pass runs with warnings off (-w,
  // clangCommandLine). CCCL's deprecation of old compilers spells them.
  if (Words[0] == "message" || Words[0].starts_with("message(") ||
      (Words[0] == "GCC" && Words.size() > 1 && Words[1] == "warning"))
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

/// The pragma of `_Pragma("...")` at \p Body[At]; none for another
/// spelling.
static std::optional<std::string>
literalPragmaText(llvm::ArrayRef<clang::Token> Body, size_t At,
                  const Preprocessor &PP) {
  if (At + 3 >= Body.size() || !Body[At + 1].is(tok::l_paren) ||
      !Body[At + 2].is(tok::string_literal) || !Body[At + 3].is(tok::r_paren))
    return std::nullopt;
  llvm::SmallString<64> Buffer;
  bool Invalid = false;
  llvm::StringRef Spelling = PP.getSpelling(Body[At + 2], Buffer, &Invalid);
  if (Invalid)
    return std::nullopt;
  return destringize(Spelling);
}

bool isQuietPragmaOperator(llvm::ArrayRef<clang::Token> Body, size_t At,
                           const Preprocessor &PP) {
  std::optional<std::string> Text = literalPragmaText(Body, At, PP);
  return Text && isQuietPragma(*Text, *PP.getDiagnostics().getDiagnosticIDs());
}

bool onlySilences(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Text.split(Words, ' ', /*MaxSplit=*/3, /*KeepEmpty=*/false);
  return Words.size() == 4 && (Words[0] == "GCC" || Words[0] == "clang") &&
         Words[1] == "diagnostic" && Words[2] == "ignored";
}

std::optional<std::string> pushedOrPoppedMacro(llvm::StringRef Text) {
  Text = Text.trim();
  if (!Text.consume_front("push_macro") && !Text.consume_front("pop_macro"))
    return std::nullopt;
  Text = Text.ltrim();
  if (!Text.consume_front("(") || !Text.consume_back(")"))
    return std::nullopt;
  Text = Text.trim();
  if (!Text.consume_front("\"") || !Text.consume_back("\"") || Text.empty() ||
      Text.contains('"') || Text.contains('\\'))
    return std::nullopt;
  return Text.str();
}

void PragmaForwarders::define(const IdentifierInfo *Name, const MacroInfo &MI,
                              const IdentifierInfo *Pragma) {
  // A stringizer: `#P`, or a stringizer of P. A forwarder:
  // `_Pragma(S(P))`, S a stringizer.
  llvm::ArrayRef<clang::Token> B = MI.tokens();
  Kind K = Other;
  const IdentifierInfo *Through = nullptr;
  if (MI.isFunctionLike() && MI.getNumParams() == 1) {
    const IdentifierInfo *P = MI.params()[0];
    auto Call = [&](size_t At) {
      return At + 4 <= B.size() && B[At + 1].is(tok::l_paren) &&
             B[At + 2].getIdentifierInfo() == P && B[At + 3].is(tok::r_paren) &&
             B[At].getIdentifierInfo() &&
             States.lookup(B[At].getIdentifierInfo()).Now == Stringizer;
    };
    if (B.size() == 2 && B[0].is(tok::hash) && B[1].getIdentifierInfo() == P)
      K = Stringizer;
    else if (B.size() == 4 && Call(0))
      K = Stringizer, Through = B[0].getIdentifierInfo();
    else if (B.size() == 7 && B[0].getIdentifierInfo() == Pragma &&
             B[1].is(tok::l_paren) && Call(2) && B[6].is(tok::r_paren))
      K = Forwarder, Through = B[2].getIdentifierInfo();
  }
  auto [It, First] = States.try_emplace(Name);
  State &S = It->second;
  if (!First && S.Now != K)
    S.Mixed = true;
  S.Now = K;
  if (Through)
    S.Through.push_back(Through);
}

bool PragmaForwarders::forwards(const IdentifierInfo *Name) const {
  auto It = States.find(Name);
  return It != States.end() && It->second.Now == Forwarder;
}

bool PragmaForwarders::alwaysForwarded(const IdentifierInfo *Name) const {
  return always(Name, Forwarder, 0);
}

bool PragmaForwarders::always(const IdentifierInfo *Name, Kind K,
                              unsigned Depth) const {
  auto It = States.find(Name);
  // A chain of stringizers longer than any real one is read as none.
  if (It == States.end() || It->second.Mixed || It->second.Now != K ||
      Depth > 8)
    return false;
  return llvm::all_of(It->second.Through, [&](const IdentifierInfo *S) {
    return always(S, Stringizer, Depth + 1);
  });
}

std::optional<std::string> PragmaForwarders::pragmaText(
    llvm::ArrayRef<clang::Token> Body, size_t At, const MacroInfo &Within,
    const Preprocessor &PP,
    llvm::SmallVectorImpl<const IdentifierInfo *> &Spelled) const {
  if (!forwards(Body[At].getIdentifierInfo()))
    return literalPragmaText(Body, At, PP);
  if (At + 1 >= Body.size() || !Body[At + 1].is(tok::l_paren))
    return std::nullopt;
  std::string Text;
  unsigned Depth = 1;
  for (size_t I = At + 2; I < Body.size(); ++I) {
    const clang::Token &T = Body[I];
    if (T.is(tok::l_paren))
      ++Depth;
    else if (T.is(tok::r_paren) && --Depth == 0)
      return Text;
    else if (T.is(tok::comma) && Depth == 1)
      return std::nullopt;
    if (!Text.empty() && T.hasLeadingSpace())
      Text += ' ';
    const IdentifierInfo *II = T.getIdentifierInfo();
    if (II && llvm::is_contained(Within.params(), II)) {
      Text += '\x01';
      continue;
    }
    if (II)
      Spelled.push_back(II);
    Text += PP.getSpelling(T);
  }
  return std::nullopt;
}

} // namespace metacu
