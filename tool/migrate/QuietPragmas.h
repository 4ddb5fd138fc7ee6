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
// stringized macro argument (_CCCL_PRAGMA), is not read, so a unit that
// includes CCCL still runs its first pass again.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_QUIETPRAGMAS_H
#define METACU_MIGRATE_QUIETPRAGMAS_H

#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang {
class DiagnosticIDs;
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

} // namespace metacu

#endif
