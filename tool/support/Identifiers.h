//===- Identifiers.h - A preprocessor's identifiers looked up, not made ---===//
//
// Preprocessor::getIdentifierInfo makes the identifier it is asked for
// when Clang has not lexed it yet. Made from metacu's code, it comes from
// metacu's inlined copy of the identifier table's BumpPtrAllocator: the
// sanitizer build instruments that copy, which poisons the rest of a new
// slab, while libclang-cpp's uninstrumented copy then writes Clang's next
// identifiers into it (a use-after-poison in Clang's lexer). A name that
// was never lexed names no macro, so the stages only look names up.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_IDENTIFIERS_H
#define METACU_SUPPORT_IDENTIFIERS_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class IdentifierInfo;
class Preprocessor;
} // namespace clang

namespace metacu {

/// The identifier \p Name of \p PP's table or of the precompiled header it
/// reads, or null where neither has it (no token of that spelling was
/// lexed, no macro has the name).
const clang::IdentifierInfo *findIdentifier(const clang::Preprocessor &PP,
                                            llvm::StringRef Name);

} // namespace metacu

#endif
