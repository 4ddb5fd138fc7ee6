//===- InheritedPlacement.h - Nested sites placed without a parse ---------===//
//
// Of a site in a header migrate does not rewrite, a parse is needed only
// to tell whether it sits in a host-only function body (its category,
// Classify.h). A site nested in a branch that no parsed pass compiles
// would take a parse of its own (CUTLASS's half.h: a test of __CUDA_ARCH__
// in the '#else' of a conditional that only the host pass takes, so a
// second parse of the whole unit, a third of its audit, for 3 sites).
// Where the conditional around it was placed in a function body that runs
// on the device, and the text from the branch's directive to the site
// opens no brace it leaves open (no lambda, local class or block that
// could run elsewhere begins there), the site sits in that same body:
// not in a host-only one, whatever the branch's code.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_INHERITEDPLACEMENT_H
#define METACU_MIGRATE_INHERITEDPLACEMENT_H

#include "migrate/Facts.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace metacu {

/// Places each site of \p F in a file \p Rewritable rejects that no pass of
/// \p Parsed (a pass mask) reached and that no other unit's parse placed,
/// from a placed conditional around it, as above (Group::Inherited).
/// Returns how many it placed.
unsigned
inheritPlacements(Facts &F, uint64_t Parsed,
                  llvm::function_ref<bool(llvm::StringRef)> Rewritable);

} // namespace metacu

#endif
