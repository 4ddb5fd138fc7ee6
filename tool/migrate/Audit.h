//===- Audit.h - Where a program tests __CUDA_ARCH__, and what can move ---===//
//
// `metacu audit` finds every use of __CUDA_ARCH__ in a file and the local
// headers it includes -- directly, through macros that alias it, and through
// feature macros defined under it -- and classifies each one: convertible to
// 'if codegen', not convertible (and why), constant on every architecture
// nvcc supports, or a hazard. `metacu migrate` (Migrate.h) rewrites the
// convertible ones from the same analysis.
//
// The analysis preprocesses the file once per compilation pass nvcc would
// make (Passes.h, PreprocessorPass.h) and parses it for the passes that take
// each branch, to see where each conditional sits (Placement.h), unless
// another unit's parse placed it already (PlacementCache.h) or, in a header
// outside the tree, the conditional around it shows it in a device
// function's body (InheritedPlacement.h). The toolkit's
// headers, most of every pass, cost it their directives only: their code is
// lexed without expanding macros, and a parse skips their function bodies,
// as it skips those of user files with no conditional it places
// (PreprocessorPass.cpp, Placement.cpp).
// Classify.h gives each site its category, AuditPrinter.h prints them.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_AUDIT_H
#define METACU_MIGRATE_AUDIT_H

#include "migrate/PlacementCache.h"
#include "migrate/Site.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace metacu {

struct AuditOptions {
  CompileFlags Flags;
  CudaToolkit Toolkit = CudaToolkit::find();
  /// Whether migrate may rewrite the file the preprocessor names so (a
  /// header of the tree it is given); without it, only the audited file.
  std::function<bool(llvm::StringRef)> InTree;
  /// The C++ source of the tree that includes the file the preprocessor
  /// names so, if one does (HostIncluders.h): the host compiler reads it
  /// without metacu, so its conditionals are rewritten for nvcc only
  /// (Site::HostIncluder) and its value uses stay.
  std::function<std::optional<std::string>(llvm::StringRef)> HostIncluder;
  /// Shared by the audits of a tree's units: a header's conditionals are
  /// placed by one parse (PlacementCache.h).
  std::shared_ptr<PlacementCache> Placements;
  /// Called with each pass the audit parses, its dearest step (a parse of
  /// every header the file includes): for measurements and tests.
  std::function<void(unsigned Pass)> OnParse;
  /// Where the parses keep the toolkit's prelude precompiled across runs
  /// (PreludePch.h); empty: nowhere, each parse reads it as text.
  std::string CacheDir;
};

/// Audits \p Path and the local (non-system) headers it includes. The
/// result lists \p Path first, then each local header it includes, sites
/// or not, each named as the preprocessor found it with "." and ".."
/// removed. A file that
/// cannot be read or preprocessed is an error at its place
/// ("k.cu:3:10: error: 'x.h' file not found").
llvm::Expected<std::vector<FileAudit>> auditFile(llvm::StringRef Path,
                                                 const AuditOptions &Opts);

} // namespace metacu

#endif
