//===- Facts.h - What the audit's passes record ---------------------------===//
//
// Each pass (PreprocessorPass.h) adds what it sees of the user's files to
// one Facts: the conditionals with the branch the pass compiles, the macros
// derived from __CUDA_ARCH__, the other sites; the parsed passes add where
// each conditional sits (Placement.h). Classify.h turns the facts into
// sites. Internal to the audit.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_FACTS_H
#define METACU_MIGRATE_FACTS_H

#include "migrate/LineTable.h"
#include "migrate/Passes.h"
#include "migrate/Site.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <cassert>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace metacu {

/// Group::Taken values besides a branch index: the pass never reached the
/// conditional, or reached it and compiled none of its branches.
constexpr int Unreached = -2;
constexpr int NoBranch = -1;

/// Execution spaces, as bits.
enum ExecSpace : unsigned { HostSpace = 1, DeviceSpace = 2, GlobalSpace = 4 };

/// Where a conditional sits, as a parse of one pass sees it. Ordered from
/// best to worst: merging passes keeps the worst.
enum class Placement {
  Unknown,
  Statement,
  Declarations, // between whole declarations at namespace scope
  Members,      // between whole member declarations of a class
  ListEntries,  // between the entries of a braced list
  /// Between statements, declaring what the code after the '#endif' uses
  /// (or a type): 'using if codegen' keeps it visible there.
  DeclaresNames,
  /// Pragmas alone (`#if __CUDA_ARCH__` `#pragma unroll n` `#endif`) before
  /// the statement they apply to, which ends at Group::PlaceOffset: each
  /// branch of the 'if codegen' chain holds the statement after its
  /// pragmas.
  PragmasBeforeStatement,
  AfterMacroStatement,
  SplitsStatement,
  SplitsDeclaration, // outside function bodies, inside a declaration
  /// A branch the pass compiles does not parse: metacu parses the body of
  /// an 'if codegen', so no form of it would expand.
  DoesNotParse,
};

/// Whether \p P is a place inside a function body.
inline bool inFunctionBody(Placement P) {
  return P == Placement::Statement || P == Placement::AfterMacroStatement ||
         P == Placement::DeclaresNames || P == Placement::SplitsStatement ||
         P == Placement::PragmasBeforeStatement;
}

/// A place in a user file: its name and a byte offset.
using FileKey = std::pair<std::string, unsigned>;

/// One conditional (#if ... #endif), as the passes saw it.
struct Group {
  std::string File;
  std::vector<unsigned> Dirs; // offsets of directive names, #endif last
  std::vector<bool> DirIsElse;
  std::vector<int> Taken = std::vector<int>(NumPasses, Unreached);
  std::optional<FileKey> Parent;
  bool Mentions = false;
  bool ValueCompared = false;
  bool ArchFeature = false;
  std::set<std::string> Via;
  /// By the offset of a directive's name: the names its condition tests
  /// (an #else's: none), as the passes saw them. The architecture's are
  /// __CUDA_ARCH__ and the macros derived from it; any other is a host
  /// compiler's, the platform's or the build's.
  std::map<unsigned, std::set<std::string>> Tests;
  /// Names other than the architecture's that the conditionals around the
  /// definitions of the derived macros its conditions test test
  /// (`defined(TURING_MMA_AVAILABLE)`, defined under `#if
  /// !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 750`, tests GGML_USE_HIP
  /// too), and the architecture's.
  std::set<std::string> Under;
  std::string BadValue;
  Placement Place = Placement::Unknown;
  unsigned PlaceOffset = 0;
  std::string PlaceDetail;
  unsigned Space = 0;
  std::string Function;
  /// Placed from what another unit's parse found (PlacementCache.h).
  bool Cached = false;
  /// Placed from the conditional around it, with no parse reaching it
  /// (InheritedPlacement.h).
  bool Inherited = false;
};

/// A site that is not a conditional: a macro alias, a redefinition, a
/// value use.
struct OtherSite {
  SiteKind Kind;
  std::string Via;
  /// Value uses: spelled in the code, not reached through a macro.
  bool Direct = false;
  /// The innermost conditional of a user file around it.
  std::optional<FileKey> Parent;
  /// Macro aliases: the macro's name, and where its body spells
  /// __CUDA_ARCH__ itself if nothing in the body could tell its value form
  /// apart ('#', '##' would spell it); empty otherwise.
  std::string Name;
  std::vector<unsigned> ValueTokens;
  /// Macro aliases: the names derived from __CUDA_ARCH__ that the body
  /// names (__CUDA_ARCH__ itself among them where it spells it), as any
  /// pass found them.
  std::set<std::string> Through;
};

/// The per-architecture facts of one file, accumulated over passes.
struct Facts {
  std::map<FileKey, Group> Groups;
  std::map<FileKey, OtherSite> Others;
  /// The names that a condition of a user file tests (Group::Tests, Group::
  /// Under) and that some pass has a macro of there.
  std::set<std::string> DefinedTests;
  /// By name, of the names conditions test: the value of its macro, in
  /// decimal, where every pass that tests it has one object-like macro of
  /// it, with an integer literal of the same value for body (the toolkit's
  /// `__CUDACC_VER_MAJOR__`, `CUDART_VERSION`); empty otherwise (a pass
  /// has no macro of it, or another body).
  std::map<std::string, std::string> TestedValues;
  std::set<FileKey> Includes, Defines;
  llvm::StringSet<> Derived;
  /// The definition (PreprocessorPass.cpp's identity of it) that the first
  /// pass to get there had of a macro, by the place in a user file where a
  /// condition or a macro body named it, directly or through other
  /// macros, and the pass's visit to that place (a header included twice):
  /// a pass that has another there derives it from __CUDA_ARCH__.
  std::map<std::tuple<FileKey, std::string, unsigned>, uint64_t>
      DefinitionsAt;
  llvm::StringSet<> Aliases;
  llvm::StringMap<unsigned> Spaces{{"__host__", HostSpace},
                                   {"__device__", DeviceSpace},
                                   {"__global__", GlobalSpace}};
  /// The invocations of function-like macros whose arguments hold a
  /// conditional directive (Clang reads one there; 'if codegen' cannot
  /// stand there): where each begins, where it ends and the macro's name.
  std::map<FileKey, std::pair<unsigned, std::string>> ArgumentLists;
  /// The parser's errors in user files, by the pass that made them and
  /// where (the expansion of a macro counts at its name): "line:col: what".
  std::map<std::pair<unsigned, FileKey>, std::string> ParseErrors;
  std::vector<std::string> FileOrder;
  llvm::StringMap<std::string> Buffers;
  /// The lines of every buffer, by file: made once, by makeLineTables
  /// when the passes are done, since a table per site made a file with
  /// thousands of sites quadratic to audit. They point into Buffers, so
  /// facts copied (a pass run again copies the facts before it) are
  /// copied before the tables exist.
  llvm::StringMap<LineTable> LineTables;
  /// The macros that a `#define` inside a conditional testing the
  /// architecture names, in either branch and whatever the passes take
  /// (definedUnderArch(), when the passes are done). expand reads a
  /// conditional that tests one as chosen per architecture.
  llvm::StringSet<> DefinedUnderArch;
  /// Makes LineTables from Buffers, anew.
  void makeLineTables() {
    LineTables.clear();
    for (const auto &[File, Text] : Buffers)
      LineTables.try_emplace(File, Text);
  }
  /// The lines of \p File's buffer; a file with none has one empty line.
  const LineTable &linesOf(llvm::StringRef File) const {
    auto It = LineTables.find(File);
    assert((It != LineTables.end() || !Buffers.count(File)) &&
           "the line tables are made once the passes are done");
    static const LineTable None{llvm::StringRef()};
    return It == LineTables.end() ? None : It->second;
  }
  /// The identifiers in macro bodies and in the arguments of macro
  /// invocations: a macro named there may expand inside another's
  /// expansion (stringified, pasted), where its value form would differ.
  llvm::StringSet<> NamedInMacros;
  /// The passes whose preprocessing these facts hold (a bit per index of
  /// auditPasses()): a parse of one of them knows beforehand which files
  /// hold conditionals it compiles.
  uint64_t Preprocessed = 0;
};

} // namespace metacu

#endif
