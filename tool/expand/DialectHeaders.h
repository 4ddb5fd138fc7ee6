//===- DialectHeaders.h - Headers written in the dialect, spliced in ------===//
//
// A header that holds meta constructs (a project's kernels.cuh, a library
// such as <metacu/dma.cuh>) cannot reach nvcc as an #include: nvcc does not
// read the dialect. Such a header is spliced into the input in place of its
// #include, as the preprocessor would read it, and the expansion runs on
// the result: the header's meta declarations become part of the one
// generator program (visible to the includer's meta code after the
// #include, as C++ declarations are), and its ordinary code is emitted in
// place under #line directives naming the header.
//
// One preprocessor pass with the user's flags decides what is spliced, so
// it follows the preprocessor state: an #include in a skipped region stays
// as it is; one the preprocessor skips because of an include guard or
// '#pragma once' becomes a blank line; an unguarded header included twice
// is spliced twice. Headers without meta constructs (the toolkit, CCCL,
// the system) stay #includes, untouched, unless they include a dialect
// header themselves (even one their guard or '#pragma once' skips there),
// which makes them part of the splice.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_DIALECTHEADERS_H
#define METACU_EXPAND_DIALECTHEADERS_H

#include "expand/HostSlice.h"
#include "support/SourceFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace metacu {

/// Whether \p Text holds a meta construct: '@meta', '@(' or 'if codegen'
/// outside comments and literals.
bool hasMetaConstructs(llvm::StringRef Text);

struct SplicedInput {
  /// The input with its dialect headers in place, origin marks naming each
  /// header (with the input's directory as the user spelled it, or relative
  /// to metacu's runtime include directory for its own headers).
  SourceFile Text;
  /// The spliced headers' real paths, each once, for the dependency file.
  std::vector<std::string> Headers;
};

/// Splices the dialect headers \p File includes, directly or through one
/// another, into it. An #include that is not spliced but sits in a spliced
/// header and names a file beside that header is rewritten relative to the
/// input's directory, where it is now read from.
llvm::Expected<SplicedInput> spliceDialectHeaders(const SourceFile &File,
                                                  const HostSliceOptions &Opts);

} // namespace metacu

#endif
