//===- Tree.h - A whole source tree for audit and migrate -----------------===//
//
// `metacu migrate src/` rewrites a whole backend in one call: the files
// named and every CUDA source and header under the directories named form
// the tree. Its .cu files are the translation units, audited in parallel
// (each as nvcc would compile it); a header is rewritten from what the
// units that include it see, and a site that they see differently (another
// macro state before the #include) stays. Headers outside the tree (the
// toolkit's, a library's) are never rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_TREE_H
#define METACU_MIGRATE_TREE_H

#include "migrate/Site.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace metacu {

class SourceTree {
public:
  /// The files named in \p Args and the CUDA sources and headers (.cu,
  /// .cuh, .h, .hpp, .hh, .inl, and headers with no extension, which open
  /// with a directive) under the directories named, each
  /// directory's in name order. A file named that does not exist is kept
  /// (its audit says so); a directory that cannot be listed is an error.
  /// Links are followed while they stay inside the directories named.
  static llvm::Expected<SourceTree> collect(llvm::ArrayRef<std::string> Args);

  /// Every file, as named or found ("src/kernels/gemm.cu").
  llvm::ArrayRef<std::string> files() const { return Files; }
  /// The .cu files among them: the translation units.
  std::vector<std::string> units() const;
  /// The C++ sources (.cc, .cpp, .cxx) under the directories named, in the
  /// same order: the host compiler builds them without metacu, and a
  /// header they include must stay plain C++.
  llvm::ArrayRef<std::string> hostSources() const { return HostSources; }
  /// Whether \p File was named itself, not only found under a directory
  /// named: the same file, however spelled.
  bool isNamed(llvm::StringRef File) const;
  /// Whether \p Path (as the preprocessor or the user names it) is a file
  /// of the tree: the same file, however spelled.
  bool contains(llvm::StringRef Path) const;
  /// The tree's name for \p Path, or \p Path with "." and ".." removed.
  std::string nameOf(llvm::StringRef Path) const;
  /// \p Path below the common directory of every file: where -o DIR puts
  /// it ("kernels/gemm.cu").
  std::string relative(llvm::StringRef Path) const;

  /// A link under a directory named that leads out of every directory
  /// named, and where it leads.
  struct Link {
    std::string Path, Target;
  };
  /// The links the walk did not follow: the tree stays what the user
  /// named, and migrate never writes through them.
  llvm::ArrayRef<Link> outside() const { return Outside; }

  /// The directory named (its real path) that holds directory \p Dir or is
  /// it, whether \p Dir exists yet or not: -o DIR there would write into
  /// the tree it reads.
  std::optional<std::string> rootHolding(llvm::StringRef Dir) const;

private:
  std::vector<std::string> Files;
  std::vector<std::string> HostSources;
  std::vector<std::string> Roots;
  std::set<std::string> Named;
  std::vector<Link> Outside;
  llvm::StringMap<std::string> ByRealPath;
  std::string Root;
};

/// The audits of a tree's units, merged.
struct TreeAudit {
  /// Each unit and each header with sites once, in the order the units
  /// reach them; each site once.
  std::vector<FileAudit> Files;
  /// Every file a unit reached, sites or not.
  std::set<std::string> Reached;
  /// Why the files that could not be audited could not, in the order
  /// given.
  std::vector<llvm::Error> Errors;
  /// The files that could not be audited.
  std::set<std::string> Failed;
};

using AuditOneFn =
    std::function<llvm::Expected<std::vector<FileAudit>>(llvm::StringRef)>;

/// Audits \p Units with \p AuditOne on \p Jobs threads and merges the
/// results (mergeAudits, files named by \p NameOf), leaving out the sites of
/// a file where the preprocessor stopped. The result does not depend on
/// \p Jobs.
TreeAudit auditUnits(llvm::ArrayRef<std::string> Units,
                     const AuditOneFn &AuditOne, unsigned Jobs,
                     const std::function<std::string(llvm::StringRef)> &NameOf);

/// Audits \p Tree, each file with \p AuditOne (as nvcc compiles it), \p Jobs
/// at a time: its .cu files, then the headers none of them reaches that are
/// read alone, as nvcc reads a header given with -x cu: every header of a
/// tree without .cu files (a header-only library), else the headers named.
/// Shallower headers are read first; one that a header read before it (or
/// one of the same depth) includes is read through that one. The sites of a
/// file where the preprocessor stopped are left out. The result does not
/// depend on \p Jobs.
TreeAudit auditTree(const SourceTree &Tree, const AuditOneFn &AuditOne,
                    unsigned Jobs);

/// Merges the audits of several units: a unit, and a header with sites,
/// once (named by \p NameOf), a site once; \p Reached, if given, gets
/// every file's name. A site the units classify differently (a header included
/// under other macros) is not convertible, and the reason names both.
std::vector<FileAudit> mergeAudits(
    llvm::ArrayRef<std::pair<std::string, std::vector<FileAudit>>> UnitAudits,
    const std::function<std::string(llvm::StringRef)> &NameOf,
    std::set<std::string> *Reached = nullptr);

} // namespace metacu

#endif
