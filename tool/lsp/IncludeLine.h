//===- IncludeLine.h - The #include through which a header is read --------===//
//
// metacu's error in a dialect header the open file includes belongs to the
// header, but the editor shows the open file: the error is shown there at
// the #include line that reads the header (directly, or through user
// headers that include it in turn), as clangd shows an error of an
// included file. Only the #include lines of the file and its user headers
// are followed (found beside their includer or in the -iquote, -I and
// -isystem directories of the file's flags): a dialect header is a user's.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_INCLUDELINE_H
#define METACU_LSP_INCLUDELINE_H

#include "toolchain/CompileFlags.h"

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace metacu {

/// The line (from 0) of the #include in \p Text, the text of \p Path, that
/// reads \p Header (a path), directly or through the headers it includes;
/// none if no #include leads there.
std::optional<unsigned> includeLineOf(llvm::StringRef Path,
                                      llvm::StringRef Text,
                                      llvm::StringRef Header,
                                      const CompileFlags &Flags);

} // namespace metacu

#endif
