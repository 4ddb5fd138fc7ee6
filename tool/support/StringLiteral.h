//===- StringLiteral.h - Text written as a C++ string literal -------------===//
//
// metacu writes text into string literals in two places: the generator
// program quotes pieces of the user's file, and the expansion names files in
// '#line' directives and in its header. Both need the same escapes, so that
// a quote, a backslash or a control character (a newline in a file's name)
// cannot end or break the literal.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_STRINGLITERAL_H
#define METACU_SUPPORT_STRINGLITERAL_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace metacu {

/// What happens to bytes of 0x80 and over.
enum class NonAscii {
  /// Written as they are: a UTF-8 file name reads as written.
  Keep,
  /// Written as octal escapes: the literal is ASCII whatever the bytes are.
  Escape,
};

/// \p S as the inside of a C++ string literal: each escape stands for the
/// byte it replaces.
std::string escapedForStringLiteral(llvm::StringRef S, NonAscii Bytes);

/// \p S as a C++ string literal, quotes included.
std::string stringLiteral(llvm::StringRef S, NonAscii Bytes = NonAscii::Escape);

} // namespace metacu

#endif
