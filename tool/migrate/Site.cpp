//===- Site.cpp -----------------------------------------------------------===//
#include "migrate/Site.h"

#include "llvm/Support/ErrorHandling.h"

namespace metacu {

llvm::StringRef siteKindName(SiteKind K) {
  switch (K) {
  case SiteKind::Conditional:
    return "conditional";
  case SiteKind::MacroAlias:
    return "macro-alias";
  case SiteKind::Redefinition:
    return "redefinition";
  case SiteKind::ValueUse:
    return "value-use";
  }
  llvm_unreachable("bad site kind");
}

llvm::StringRef categoryName(SiteCategory C) {
  switch (C) {
  case SiteCategory::Statement:
    return "statement";
  case SiteCategory::HostDeviceSplit:
    return "host-device-split";
  case SiteCategory::Declaration:
    return "declaration";
  case SiteCategory::ListEntry:
    return "list-entry";
  case SiteCategory::LocalDeclaration:
    return "local-declaration";
  case SiteCategory::MacroDefinition:
    return "macro-definition";
  case SiteCategory::Value:
    return "value";
  case SiteCategory::NotConvertible:
    return "not-convertible";
  case SiteCategory::Constant:
    return "constant";
  case SiteCategory::Hazard:
    return "hazard";
  }
  llvm_unreachable("bad category");
}

} // namespace metacu
