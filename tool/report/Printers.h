//===- Printers.h - metacu report's text table and JSON -------------------===//
//
// The text form is for reading: one table per kernel, a row per
// architecture, diagnoses under it. The JSON form is for tools and is
// documented field by field in docs/report.md; fields are only ever added.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_PRINTERS_H
#define METACU_REPORT_PRINTERS_H

#include "report/Report.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace metacu::report {

void printText(llvm::raw_ostream &OS, llvm::ArrayRef<KernelReport> Rows);

void printJson(llvm::raw_ostream &OS, llvm::ArrayRef<KernelReport> Rows);

} // namespace metacu::report

#endif
