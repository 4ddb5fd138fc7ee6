//===- KernelSource.h - A kernel's tuning space and candidates, by metacu -===//
//
// The dialect side of `metacu tune`: a kernel's file declares its space as a
// `metacu::tune_space` handed to `metacu::tune_candidates` (docs/tune.md).
// Expanding the file with a tuning request (the METACU_TUNE_REQUEST
// environment variable names it) makes that call describe the space, with
// its restrictions already evaluated, or return the candidates to emit, so
// every candidate is a specialization metacu generates from the one source.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_KERNEL_KERNELSOURCE_H
#define METACU_TUNE_KERNEL_KERNELSOURCE_H

#include "expand/Pipeline.h"
#include "tune/Bundle.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace metacu::tune {

struct KernelSource {
  /// The kernel's file as given.
  std::string Path;
  DeclaredSpace Declared;
  /// The files the kernel's file includes that a build elsewhere needs
  /// (not the toolkit's, the system's or metacu's): path relative to a
  /// common folder, real path here; and the file's folder relative to it.
  std::vector<std::pair<std::string, std::string>> Files;
  std::string SourceDir;
  /// Every file the expansion read (ExpandedFile::Dependencies): no output
  /// of the run may replace one.
  std::vector<std::string> Dependencies;
  /// The describe expansion, when every space of the file is read through
  /// metacu::tuned_kernels: the source of a tuning harness that does not
  /// depend on the candidates (their table filled at run time); empty
  /// otherwise.
  std::string HarnessSource;
  /// The expansion of every candidate of the space (candidatesFor's of
  /// every configuration), when describe() made it; empty otherwise.
  std::string WholeSpace;

  /// Expands \p Path for \p Archs and reads the space named \p Kernel, or
  /// the only one the file declares when \p Kernel is empty. With \p Whole,
  /// a space of at most that many configurations is expanded whole in the
  /// same interpreter run (WholeSpace; a live run's one batch), and its
  /// harness (HarnessSource) is that expansion with every candidate's
  /// kernel guarded for its shard; if that expansion fails (a candidate's
  /// meta code), the space is described alone. That expansion is kept
  /// between runs (KeptExpansion.h) and taken where nothing it read has
  /// changed and none of \p Watched (files it would read if they existed:
  /// the tuning file the run writes) has been made since.
  static llvm::Expected<KernelSource>
  describe(llvm::StringRef Path, llvm::StringRef Kernel, const ArchList &Archs,
           const PipelineOptions &Opts, size_t Whole = 0,
           llvm::ArrayRef<std::string> Watched = {});

  /// The file expanded with \p Batch as the space's candidates: WholeSpace
  /// when it is every candidate.
  llvm::Expected<std::string> generate(llvm::ArrayRef<Candidate> Batch,
                                       const ArchList &Archs,
                                       const PipelineOptions &Opts) const;
};

/// \p Opts as a tuning build has them: METACU_TUNE defined, as run.py's
/// nvcc defines it. A kernel's file keeps its tuning problem inside
/// #ifdef METACU_TUNE and may leave out of tuning builds what only its
/// ordinary main uses, so the expansion and every compile of its candidates
/// (the bundle's, --predict's) must agree on it.
PipelineOptions tuningBuild(const PipelineOptions &Opts);

} // namespace metacu::tune

#endif
