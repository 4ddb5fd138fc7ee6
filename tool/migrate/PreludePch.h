//===- PreludePch.h - The toolkit's prelude of a parse, precompiled -------===//
//
// Every parse of the audit (PreprocessorPass.h) reads cuda_runtime.h first,
// as nvcc's host compiler does (-include), and that prelude is most of a
// parse: of the toolkit's headers and the C++ library's, the same for every
// file compiled with the same flags. So it is precompiled once per command
// line (pass, -D/-U/-I flags, toolkit, Clang and metacu) into the cache
// directory (StoredPch.h) and read from there by later parses, in this run
// and later ones.
//
// A unit that includes system headers first (XGBoost's units: thrust's,
// 1.4 s of the 2.1 s parse of stats.cu) reads them after the prelude
// before any code of its own: a prelude with them too (preamble-HASH.pch, one
// per list of them) is what its parse reads where one can be built. The unit's
// own #include lines then find each header read already, and its guard makes
// them read nothing.
//
// The passes' preprocessor callbacks never see the text a precompiled
// header holds. What they learn from the prelude (macros derived from
// __CUDA_ARCH__ or holding an execution space, names that macros mention,
// macros that conditions test: PreprocessorPass.cpp) is written down while
// it is built, as the events that taught it, and played back into the
// facts before each parse that reads it, as the callbacks would have
// recorded them then. A prelude that holds a user file, or leaves anything
// open for the code after it, is not precompiled. A header that is stale,
// damaged or refused by Clang means a parse of the prelude as text.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PRELUDEPCH_H
#define METACU_MIGRATE_PRELUDEPCH_H

#include "migrate/Facts.h"
#include "toolchain/StoredPch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu {

/// The command line that builds the prelude of the parse \p Args
/// (clangCommandLine(), the file last): the file replaced by \p Main, the
/// user's other -include files left out, the headers \p Extra names
/// (leadingSystemIncludes()) included after cuda_runtime.h. Empty if \p
/// Args has no prelude, or \p Extra is given and the user's -include files
/// would come between the two.
std::vector<std::string>
preludeBuildArgs(llvm::ArrayRef<std::string> Args, llvm::StringRef Main,
                 llvm::ArrayRef<std::string> Extra);

/// The headers that the #include <...> lines at the top of \p Text (a
/// unit) name, in order, up to the first line that is anything else but
/// a comment or blank. Right after the prelude, they are most of a parse
/// of a unit that includes CCCL (XGBoost's: thrust's headers). Read as the
/// prelude's -include files, a header the unit's line then includes again
/// is skipped by its guard (a build checks that each has one), so the unit
/// reads them as its text did: in the same order, after the same macros.
std::vector<std::string> leadingSystemIncludes(llvm::StringRef Text);

/// \p Args with the prelude read from the precompiled header \p Pch.
std::vector<std::string> withPreludePch(llvm::ArrayRef<std::string> Args,
                                        llvm::StringRef Pch);

/// The paths where a file, if one appeared, would be read instead of a
/// header of the prelude: each header's name as the prelude's #include
/// lines spell it (\p Spelled), under each include directory of \p
/// BuildArgs and the working directory (searched before the toolkit's).
std::vector<std::string> shadowingPaths(llvm::ArrayRef<std::string> BuildArgs,
                                        llvm::ArrayRef<std::string> Spelled);

/// Facts::TestedValues: \p Name, tested where a pass's macro of it has the
/// value \p Decimal (empty: none, or no integer literal). The callbacks'
/// merge and the playback's.
void noteTestedValue(Facts &F, llvm::StringRef Name,
                     const std::string &Decimal);

/// What the definition of the macro \p Name teaches \p F, read alike by a
/// pass's callbacks and by the playback of a precompiled prelude: the
/// execution spaces of the macros its body names (\p Body, the body's
/// identifiers in order), whether it is derived from __CUDA_ARCH__ (the
/// body names it or a derived macro) and whether it aliases it (names it
/// or an alias). \p DerivedAt(I): whether Body[I], not __CUDA_ARCH__, is a
/// derived macro where the definition is; a pass compares there, at a
/// place of a user file, its macros' definitions with the other passes'.
/// None: Facts::Derived says, as for every macro of no user file. Returns
/// the macro the definition is derived through (the body's first derived
/// name but __CUDA_ARCH__; empty where only __CUDA_ARCH__), nothing where
/// it is not derived.
std::optional<std::string>
noteMacroDefined(Facts &F, llvm::StringRef Name,
                 llvm::ArrayRef<llvm::StringRef> Body,
                 llvm::function_ref<bool(size_t I)> DerivedAt = nullptr);

/// Plays back into \p F the events PreprocessorPass.cpp's callbacks wrote
/// while the prelude was built: "D NAME BODY-NAMES..." a macro defined,
/// "N NAME" a name in a macro's arguments, "T NAME DEFINED VALUE" a test
/// of whether NAME is a macro.
void applyPreludeNotes(llvm::StringRef Notes, Facts &F);

/// What a build of a prelude with the unit's leading system headers
/// (preludePch()'s \p Extra) found: how many of them, from the first, a
/// prelude may hold (those before the first that is a user's header or
/// has no include guard, or none where the build failed otherwise).
struct PreludeRefusal {
  size_t Usable = 0;
};

/// The precompiled prelude of the parse \p Args in \p CacheDir, with the
/// headers \p Extra names after cuda_runtime.h (preludeBuildArgs()), built
/// with \p Build (the empty main file, the temporary path to write, where
/// to say why it refused) if there is none intact, unless the command line
/// is met for the first time (see CacheDir/NAME.pch.wanted). Nothing if the
/// cache cannot be written or the build failed before in this run; then,
/// for a prelude with \p Extra, \p Usable says how many of them another
/// one may hold (kept as NAME.pch.usable: a build that refused is not
/// tried again).
std::optional<StoredPch>
preludePch(llvm::StringRef CacheDir, llvm::ArrayRef<std::string> Args,
           llvm::ArrayRef<std::string> Extra,
           llvm::function_ref<std::optional<PchBuild>(
               llvm::ArrayRef<std::string> BuildArgs, llvm::StringRef Temp,
               PreludeRefusal &Why)>
               Build,
           size_t &Usable);

} // namespace metacu

#endif
