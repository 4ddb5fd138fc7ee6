//===- PragmaMacros.h - nvcc's reading of a macro that spells #pragma -----===//
//
// Code written for nvcc defines pragmas as macros with the directive in the
// body: CUTLASS's `#define CUTLASS_PRAGMA_UNROLL #pragma unroll` (chosen
// under `#if defined(__CUDA_ARCH__)`, for nvcc only). nvcc preprocesses to
// text first and reads the text again, so an expansion alone on its line is
// the directive. Clang reads the same tokens where they expand, and a '#'
// there is no expression: its parse of every branch that used such a macro
// failed, and migrate left those branches as they were (38 of CUTLASS's
// sites). Clang's spelling of a pragma that a macro produces is the
// _Pragma operator, which the parse passes read instead.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PRAGMAMACROS_H
#define METACU_MIGRATE_PRAGMAMACROS_H

namespace clang {
class MacroInfo;
class Preprocessor;
} // namespace clang

namespace metacu {

/// For an object-like macro whose body is `# pragma TOKENS`, a new
/// definition of it whose body is `_Pragma("TOKENS")`, the tokens spelled as
/// written with the spaces between them; null for any other macro.
clang::MacroInfo *asPragmaOperator(clang::Preprocessor &PP,
                                   const clang::MacroInfo &MI);

} // namespace metacu

#endif
