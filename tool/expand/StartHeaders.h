//===- StartHeaders.h - The headers at the head of a program's start -------===//
//
// A generator program's start (Generator::StartEnd) is mostly its headers:
// the file's #include lines come first, and compiling what they include is
// most of compiling the start. The user's own declarations between them
// and the first meta statement are few and are what an edit above that
// statement changes. The start's headers end after its last #include, once
// no conditional directive is open there, so that both parts compile apart
// (Execute.h keeps each compiled).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_STARTHEADERS_H
#define METACU_EXPAND_STARTHEADERS_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>

namespace metacu {

/// The length of \p Start's headers: up to the end of the line of its last
/// #include (or #include_next, #import), or of the #endif that closes the
/// conditionals open there. 0: none (no #include, or one whose conditional
/// the start does not close).
size_t startHeadersEnd(llvm::StringRef Start);

} // namespace metacu

#endif
