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
#include <string>

namespace metacu {

/// A table per file with line numbers, then the summary (printSummary).
void printAuditText(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);
/// "summary: N sites in M files: ..." with the count per category, then
/// the sites that stay counted by category and reason (reasonKind).
void printSummary(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);
/// \p Reason without its particulars, the first clause with quoted names
/// as '...' and numbers as N: "chooses declarations at namespace scope".
std::string reasonKind(llvm::StringRef Reason);
/// The format docs/audit-json.md documents.
void printAuditJson(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);

} // namespace metacu

#endif
