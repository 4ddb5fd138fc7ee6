//===- AuditPrinter.h - The output of metacu audit ------------------------===//
//
// The sites of an audit as a table per file for people, or as the JSON
// docs/audit-json.md documents for programs.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_AUDITPRINTER_H
#define METACU_MIGRATE_AUDITPRINTER_H

#include "migrate/Site.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace metacu {

/// A table per file with line numbers, then a summary.
void printAuditText(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);
/// The format docs/audit-json.md documents.
void printAuditJson(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);

} // namespace metacu

#endif
