//===- Shards.h - A batch's candidates compiled in shards -----------------===//
//
// One expansion holds a batch's candidates in one translation unit, and one
// nvcc compiles a translation unit on one core (its --split-compile spreads
// little of the work). So that run.py can compile a batch over every core
// without another expansion, each candidate's kernel bodies are guarded by
// a macro of its own: a compile with METACU_TUNE_SHARD defined compiles the
// bodies of the candidates whose METACU_TUNE_IN_SHARD_<name> it defines and
// leaves the others' kernels empty (declared, launchable, never launched),
// so each shard's nvcc instantiates only its own candidates. Without
// METACU_TUNE_SHARD the file is the whole batch, as before.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_SHARDS_H
#define METACU_TUNE_SHARDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace metacu::tune {

/// The macro a shard's compile defines to build candidate \p Name's kernels.
std::string shardMacro(llvm::StringRef Name);

struct GuardedBatch {
  std::string Text;
  /// Per candidate, the tokens of kernel body guarded (directives aside):
  /// run.py's estimate of its compile cost. 0 when no kernel of that name was found (then it is
  /// compiled in every shard, which is correct, only slower).
  std::vector<uint64_t> Weights;
};

/// Guards, in the expansion \p Text, the body of every `__global__`
/// function definition named \p Names[i] (or `<Names[i]>_...`) by
/// shardMacro(Names[i]), unless the body's preprocessor conditionals do not
/// nest inside it. The presumed line numbers (#line) of the code after
/// each inserted directive are kept, so diagnostics still name the user's
/// lines.
GuardedBatch guardCandidates(llvm::StringRef Text,
                             llvm::ArrayRef<std::string> Names);

} // namespace metacu::tune

#endif
