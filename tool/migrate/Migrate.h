//===- Migrate.h - Rewrite __CUDA_ARCH__ conditionals as 'if codegen' -----===//
//
// `metacu migrate` turns the conditionals `metacu audit` finds convertible
// into 'if codegen' chains, its uses of __CUDA_ARCH__'s value into uses of
// __nvvm_arch's, and leaves every other site as written. Only the directive
// lines and the __CUDA_ARCH__ tokens change: the branches' code, its
// formatting and its comments stay byte for byte, and so do the
// directives' own comments.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_MIGRATE_H
#define METACU_MIGRATE_MIGRATE_H

#include "migrate/Diff.h"
#include "migrate/Site.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu {

struct Migration {
  std::vector<Edit> Edits; // ascending, not overlapping
  std::string Text;        // the rewritten file
  /// One line per site: what was converted, or what was left and why.
  std::vector<std::string> Report;
  /// Conditionals replaced by their one live branch (\p Assumed).
  unsigned Simplified = 0;
};

/// Rewrites the convertible conditionals among \p Sites, the audit of
/// \p Text (a file named \p Path), and its converted value uses: each
/// __CUDA_ARCH__ token becomes ArchValue (Classify.h).
///
/// \p Assumed: the passes the user builds for (the host's always among
/// them; a mask over auditPasses()), when they said so (--assume-arch). A
/// conditional of which those passes compile one branch only (and no
/// hazard, no arch-specific feature test) is then replaced by that branch,
/// its directives and other branches left as empty lines: the file is
/// then right for those architectures only, which the user asked for.
Migration migrate(llvm::StringRef Path, llvm::StringRef Text,
                  llvm::ArrayRef<Site> Sites,
                  std::optional<uint64_t> Assumed = std::nullopt);

} // namespace metacu

#endif
