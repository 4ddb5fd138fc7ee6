//===- Classify.h - The category of a site, and why -----------------------===//
//
// Turns what the passes recorded (Facts.h) into sites: a conditional is a
// hazard (compared with a value that is no architecture, tested in
// host-only code), constant (every pass nvcc 13 can make compiles the same
// branch, or it only tells host from device), not convertible (and why:
// its place, a header, arch-specific features, an enclosing conditional
// that stays, #include or #define lines in it) or convertible, with the
// 'if codegen' condition of each branch.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_CLASSIFY_H
#define METACU_MIGRATE_CLASSIFY_H

#include "migrate/Facts.h"
#include "migrate/LexedFiles.h"
#include "migrate/Site.h"

namespace metacu {

/// Whether \p G is a site: a conditional that names __CUDA_ARCH__ (or a
/// macro derived from it) or whose branch differs between passes.
bool isSite(const Group &G);

/// What migrate writes for __CUDA_ARCH__'s value: __nvvm_arch is the
/// architecture / 10 (sm_80 is 80), 0 in the host pass.
extern const char *const ArchValue;
/// Why a site of a header outside the tree stays.
extern const char *const OutsideTree;

/// Facts::DefinedUnderArch of \p F, from its groups and buffers.
llvm::StringSet<> definedUnderArch(const Facts &F);

/// The site of conditional \p G of \p F, whose files \p Files lexes.
/// \p InTree: in a file migrate may rewrite (the tree it is given);
/// \p Outside: why the sites of a file it may not rewrite stay. \p Parent:
/// the innermost site around it.
Site classifyConditional(const Group &G, const Facts &F, LexedFiles &Files,
                         bool InTree, const Site *Parent,
                         llvm::StringRef Outside = OutsideTree);

/// The site of a macro alias, redefinition or value use at \p Where. A
/// value use spelled in the code converts unless \p Stays says why not
/// (a header outside the tree, a conditional around it that stays).
Site classifyOther(const FileKey &Where, const OtherSite &O, const Facts &F,
                   std::optional<std::string> Stays = std::nullopt);

/// Whether the macro alias \p O can take the value form: its body spells
/// __CUDA_ARCH__ itself as a value (no '#', '##'), and the macro is used
/// in code only, never in a condition (\p F's conditionals reach
/// __CUDA_ARCH__ through it) nor inside another macro's body or arguments
/// (where it may be stringified or pasted).
bool takesValueForm(const OtherSite &O, const Facts &F);

/// \p S, a macro alias that takesValueForm(), or a value use through such
/// a macro, made a Value site: the body's __CUDA_ARCH__ becomes ArchValue,
/// which is right at each use since __nvvm_arch is a macro of each pass.
void convertThroughMacro(Site &S, const OtherSite &O);

/// The macros whose every difference between the passes is what converted
/// sites of \p Sites (conditionals, keyed as Facts::Groups) say: those of
/// \p ValueMacros, and those each of whose #define and #undef lines in the
/// files of \p F sits in no conditional that stays, where a definition
/// whose body names such macros names only those of this set
/// (\p Aliases: \p F's macro aliases of the tree whose text migrate may
/// change). A use of one needs no edit: each pass expands its own
/// definition, which 'if codegen' chose.
llvm::StringSet<> settledMacros(const Facts &F, LexedFiles &Files,
                                const std::map<FileKey, Site> &Sites,
                                const llvm::StringSet<> &ValueMacros,
                                const llvm::StringSet<> &Aliases);

/// \p S, a macro alias whose body reaches __CUDA_ARCH__ only through
/// macros of \p Settled (settledMacros()), made a MacroDefinition site
/// that stays as written; \p S unchanged otherwise.
void followSettledMacros(Site &S, const OtherSite &O,
                         const llvm::StringSet<> &Settled);

} // namespace metacu

#endif
