//===- QuietPragmas.h - Pragma operators a preprocessor pass may skip -----===//
//
// A preprocessor pass lexes a system header's code without expanding it
// (PreprocessorPass.cpp, TokenDrain) or replays only its directives
// (SystemHeaderDirectives.h), except where a macro in the code can expand
// to a _Pragma: a pragma (push_macro, pop_macro, poison, once,
// system_header) can change what the pass records. Most _Pragma operators
// of the toolkit change nothing of it: vector_types.h silences its
// deprecations around each vector type with
//   _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1444")
//   _Pragma("GCC diagnostic push")
//   _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
// and counting those made the first pass of every metacu run lex
// vector_types.h and its neighbours in full and run again (6% of the
// instructions of a unit that reads only the toolkit's C headers). A
// _Pragma whose argument is a literal naming such a pragma is quiet: the
// passes skip it as they skip code. CCCL's spelling, _Pragma of a
// stringized macro argument, is read through PragmaForwarders: its
// `_CCCL_PRAGMA(nv_exec_check_disable)` is as quiet as the literal, and its
// `_CCCL_PUSH_MACROS` (push_macro("min") ... pop_macro("min")) changes
// nothing in a pass that never defines or undefines those names
// (SystemHeaderDirectives.cpp), so that a unit that includes CCCL runs its
// first pass once.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_QUIETPRAGMAS_H
#define METACU_MIGRATE_QUIETPRAGMAS_H

#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class DiagnosticIDs;
class IdentifierInfo;
class MacroInfo;
class Preprocessor;
} // namespace clang

namespace metacu {

/// Whether the pragma \p Text (a _Pragma's destringized argument) leaves
/// what a preprocessor pass records as it was: one Clang does not know
/// (nvcc's nv_diag_*, the loop pragmas, which only the parser reads), or a
/// diagnostic pragma whose group holds none of the preprocessor's
/// diagnostics (the pass stops only at those, StopRecorder) or that
/// pushes or pops the mapping. \p IDs: the diagnostics Clang knows.
bool isQuietPragma(llvm::StringRef Text, const clang::DiagnosticIDs &IDs);

/// Whether \p Body[At], a _Pragma, is `_Pragma("...")` with a quiet
/// pragma (isQuietPragma) spelled as a plain string literal.
bool isQuietPragmaOperator(llvm::ArrayRef<clang::Token> Body, size_t At,
                           const clang::Preprocessor &PP);

/// Whether the pragma \p Text only silences a diagnostic (`GCC diagnostic
/// ignored X`, `clang diagnostic ignored X`, X whatever it is): every
/// pass already ignores warnings (-w), so lost, it can only turn a pass
/// that went on into one that met an error.
bool onlySilences(llvm::StringRef Text);

/// The macro that the pragma \p Text saves or restores (`push_macro("min")`,
/// `pop_macro("min")`); none for any other pragma.
std::optional<std::string> pushedOrPoppedMacro(llvm::StringRef Text);

/// The macros of one pass that hand their one argument to a _Pragma, as
/// CCCL's do:
///   #define _CCCL_TO_STRING2(_STR) #_STR
///   #define _CCCL_TO_STRING(_STR) _CCCL_TO_STRING2(_STR)
///   #define _CCCL_PRAGMA(_ARG) _Pragma(_CCCL_TO_STRING(_ARG))
/// so that a macro's body that calls one reads as the pragma it gives.
class PragmaForwarders {
public:
  /// Reads a definition of \p Name: every one of the pass, in order.
  void define(const clang::IdentifierInfo *Name, const clang::MacroInfo &MI,
              const clang::IdentifierInfo *Pragma);

  /// Whether \p Name is a forwarder as the pass defines it now.
  bool forwards(const clang::IdentifierInfo *Name) const;

  /// Whether every definition of \p Name in the pass so far was a
  /// forwarder, through stringizers of which every definition so far was
  /// one: a body read through it reads as it expands, wherever it does.
  bool alwaysForwarded(const clang::IdentifierInfo *Name) const;

  /// The pragma that \p Body[At] gives, where it is `_Pragma("...")` or a
  /// forwarder called with one argument, the argument read as the
  /// stringizer spells it; a parameter of \p Within (whose value comes
  /// from its caller) reads as a word no pragma has. \p Spelled gets the
  /// argument's other identifiers: a macro of one of them where the body
  /// expands would change the pragma.
  std::optional<std::string> pragmaText(
      llvm::ArrayRef<clang::Token> Body, size_t At,
      const clang::MacroInfo &Within, const clang::Preprocessor &PP,
      llvm::SmallVectorImpl<const clang::IdentifierInfo *> &Spelled) const;

private:
  enum Kind { Stringizer, Forwarder, Other };
  struct State {
    Kind Now = Other;
    /// Some definition was of another kind than the first.
    bool Mixed = false;
    /// The stringizers its definitions went through.
    llvm::SmallVector<const clang::IdentifierInfo *, 1> Through;
  };
  bool always(const clang::IdentifierInfo *Name, Kind K, unsigned Depth) const;
  llvm::DenseMap<const clang::IdentifierInfo *, State> States;
};

} // namespace metacu

#endif
