//===- Placement.h - Where a conditional sits in the parsed code ----------===//
//
// For the passes the audit parses: whether each conditional the pass
// compiles sits between whole statements of one function body (what
// 'if codegen' can replace), splits a statement, declares names used after
// it, or chooses declarations at class or namespace scope; and the
// execution space of the function around it.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PLACEMENT_H
#define METACU_MIGRATE_PLACEMENT_H

#include "migrate/Facts.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include <memory>

namespace metacu {

/// Places the conditionals of \p F that pass \p Pass compiles, when the
/// translation unit is parsed, in their Group::Place (keeping the worst
/// placement any pass saw), Space and Function.
std::unique_ptr<clang::ASTConsumer>
createPlacementConsumer(clang::CompilerInstance &CI, Facts &F, unsigned Pass);

} // namespace metacu

#endif
