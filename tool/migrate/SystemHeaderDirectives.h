//===- SystemHeaderDirectives.h - System headers read as directives -------===//
//
// A pass that only preprocesses (PreprocessorPass.h) needs nothing from a
// system header (the toolkit's, the C++ library's: most of every pass's
// text) but its directives: the branches it takes, the macros it defines,
// the files it includes; its code is not even expanded. Clang's dependency
// scanner reduces a file to those directives once, and Clang's
// preprocessor replays them in place of the file (clang-scan-deps reads
// every header so): every pass of every file of one metacu run replays the
// scan of each system header instead of lexing it again.
//
// What a system header's code could still change is the macro table,
// through a _Pragma (push_macro, pop_macro) that a macro named in the code
// expands to, which a replay loses. After a pass, every replayed header
// whose code names a macro that any definition of the pass lets reach a
// _Pragma is lexed in full from then on, and the pass runs again. A quiet
// _Pragma (QuietPragmas.h: the toolkit's diagnostic pragmas, CCCL's
// through _CCCL_PRAGMA) counts for none: a replay loses nothing the pass
// records. Nor does a diagnostic's `ignored` mapping in a pass that met no
// error (warnings are off: lost, it could only have made one). Nor does a
// push_macro or pop_macro of a name that no directive
// of the pass defines or undefines: whatever it saves, it restores the
// same. What makes a _Pragma quiet is checked when the pass is done: that
// the forwarders it went through stayed forwarders, and that the names its
// text spells were never macros of the pass.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_SYSTEMHEADERDIRECTIVES_H
#define METACU_MIGRATE_SYSTEMHEADERDIRECTIVES_H

#include "migrate/QuietPragmas.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/DependencyDirectivesScanner.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>

namespace metacu {

/// The scans of the system headers one metacu run has read, shared by all
/// its threads, and the headers whose code must be lexed in full.
class SystemHeaderScans {
public:
  struct Scan {
    llvm::SmallVector<clang::dependency_directives_scan::Token, 0> Tokens;
    llvm::SmallVector<clang::dependency_directives_scan::Directive, 0>
        Directives;
    /// The identifiers outside directives (a #pragma line counts as code:
    /// the scan keeps only some pragmas).
    llvm::StringSet<> CodeNames;
    /// The file, its size and time: a file edited, or another file that
    /// has taken the ID of one deleted, is another header.
    std::tuple<llvm::sys::fs::UniqueID, uint64_t, int64_t> Key;
  };

  /// The scan of \p File, whose text is \p Text; none where the scanner
  /// fails or the header is to be lexed in full.
  const Scan *scan(clang::FileEntryRef File, llvm::StringRef Text);

  /// From now on the header of \p S is lexed in full.
  void lexInFull(const Scan &S);

  /// The run's scans.
  static SystemHeaderScans &shared();

private:
  using Key = decltype(Scan::Key);
  std::mutex Lock;
  std::map<Key, std::unique_ptr<Scan>> Scans;
  std::set<Key> InFull;
};

/// Gives one pass's preprocessor the scans of the system headers it
/// enters (a user file, and a header nvcc reads as a user's, is lexed in
/// full), and tells afterwards whether a replay may have lost a _Pragma.
class SystemHeaderReplay : public clang::DependencyDirectivesGetter {
public:
  SystemHeaderReplay(clang::SourceManager &SM, SystemHeaderScans &Scans)
      : SM(SM), Scans(Scans) {}

  std::optional<llvm::ArrayRef<clang::dependency_directives_scan::Directive>>
  operator()(clang::FileEntryRef File) override;

  /// Another compiler instance (a module's build) lexes everything.
  std::unique_ptr<clang::DependencyDirectivesGetter>
  cloneFor(clang::FileManager &) override;

  /// Watches the pass's macro definitions; add to \p PP.
  std::unique_ptr<clang::PPCallbacks>
  definitionWatcher(const clang::Preprocessor &PP);

  /// Whether a header replayed in this pass names in its code a macro that
  /// can reach a _Pragma; each such header is lexed in full from now on.
  bool mayHaveLostPragma(clang::Preprocessor &PP);

  /// What the pass's macro definitions say about the _Pragma operators
  /// they can reach.
  struct Definitions {
    /// For each name, the macros whose bodies name it, by definition.
    llvm::DenseMap<const clang::IdentifierInfo *,
                   llvm::SmallVector<const clang::IdentifierInfo *, 1>>
        UsedBy;
    /// A use of a _Pragma or a forwarder in a macro's body that gives a
    /// quiet pragma, a push_macro or pop_macro of \p Saved, or (\p
    /// Silences) an `ignored` mapping, as long as \p Via (null: the
    /// _Pragma itself) stays a forwarder and the names \p Spelled stay no
    /// macros.
    struct PragmaUse {
      const clang::IdentifierInfo *Via, *Macro;
      llvm::SmallVector<const clang::IdentifierInfo *, 4> Spelled;
      std::optional<std::string> Saved;
      bool Silences = false;
    };
    std::vector<PragmaUse> PragmaUses;
    PragmaForwarders Forwarders;
    /// The names some directive of the pass defined or undefined.
    llvm::DenseSet<const clang::IdentifierInfo *> Changed;
  };

private:
  clang::SourceManager &SM;
  SystemHeaderScans &Scans;
  llvm::SetVector<const SystemHeaderScans::Scan *> Replayed;
  Definitions Defs;
};

} // namespace metacu

#endif
