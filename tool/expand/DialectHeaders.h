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
// One preprocessor pass decides what is spliced: the input as nvcc's host
// pass reads it (with __CUDACC__ and __NVCC__, the toolkit's definitions
// and the user's flags), since that is what nvcc compiles. It follows the
// preprocessor state: an #include in a skipped region stays
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
#include <optional>
#include <string>
#include <vector>

namespace metacu {

/// The offsets of the meta constructs of \p Text (NUL-terminated), in
/// order: '@meta', '@(' and 'if codegen' outside comments and literals.
std::vector<unsigned> metaConstructOffsets(llvm::StringRef Text);

/// The offset of the first meta construct of \p Text, if any.
std::optional<unsigned> firstMetaConstruct(llvm::StringRef Text);

/// Whether \p Text holds a meta construct.
inline bool hasMetaConstructs(llvm::StringRef Text) {
  return firstMetaConstruct(Text).has_value();
}

/// What metacu's messages call the header at \p Path: not its absolute
/// path, but the input's directory as the user spelled it joined with the
/// header's path relative to it, or its include name under metacu's
/// runtime include directory \p RuntimeInclude ("metacu/dma.cuh").
std::string displayHeaderPath(llvm::StringRef InputPath,
                              llvm::StringRef RuntimeInclude,
                              llvm::StringRef Path);

/// What #line calls the header at \p Path. nvcc's dependency file lists
/// the names #line gives, so each must open from where the input's own
/// name does (the directory metacu and nvcc run in, or anywhere for an
/// absolute input): the display name for a header of the user's, which is
/// the input's name's directory joined with a path relative to it (the
/// same bytes on every machine for an input named relatively); the real
/// path for one of metacu's own, the one name of it that opens from
/// anywhere.
std::string lineHeaderPath(llvm::StringRef InputPath,
                           llvm::StringRef RuntimeInclude,
                           llvm::StringRef Path);

struct SplicedInput {
  /// The input with its dialect headers in place, origin marks naming each
  /// header as displayHeaderPath() and lineHeaderPath() do.
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
