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
#include "migrate/Site.h"

namespace metacu {

/// Whether \p G is a site: a conditional that names __CUDA_ARCH__ (or a
/// macro derived from it) or whose branch differs between passes.
bool isSite(const Group &G);

/// The site of conditional \p G of \p F. \p InMainFile: in the file the
/// user gave, not in a header. \p Parent: the innermost site around it.
Site classifyConditional(const Group &G, const Facts &F, bool InMainFile,
                         const Site *Parent);

/// The site of a macro alias, redefinition or value use at \p Where.
Site classifyOther(const FileKey &Where, const OtherSite &O, const Facts &F);

} // namespace metacu

#endif
