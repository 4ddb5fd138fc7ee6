//===- HostIncluders.h - Headers the host compiler reads without metacu ---===//
//
// A project's C++ sources (.cc, .cpp, .cxx) are built by the host compiler
// (g++), not by nvcc through metacu: a header one of them includes must
// stay plain C++, for 'if codegen' would not compile there. Which headers
// they include is Clang's preprocessor's answer, with the -I/-D given, as
// the compiler resolves each #include, not a reading of #include lines.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_HOSTINCLUDERS_H
#define METACU_MIGRATE_HOSTINCLUDERS_H

#include "migrate/Tree.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/Error.h"
#include <functional>
#include <map>
#include <string>

namespace metacu {

/// For each file of \p Tree that one of its host sources (hostSources())
/// includes, directly or through other headers: the first such source, by
/// the tree's names. Each source is preprocessed as C++ with the flags
/// \p FlagsFor gives it (none where it gives an error), \p Jobs at a
/// time; a header it cannot find is passed over (the build's own include
/// directories may differ) and the rest read on.
std::map<std::string, std::string>
hostIncluders(const SourceTree &Tree,
              const std::function<llvm::Expected<CompileFlags>(llvm::StringRef)>
                  &FlagsFor,
              const CudaToolkit &Toolkit, unsigned Jobs);

} // namespace metacu

#endif
