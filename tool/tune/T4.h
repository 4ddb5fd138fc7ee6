//===- T4.h - Results in the T4 auto-tuning results format ----------------===//
//
// T4 (the auto-tuning community's "results-schema.json", version 1.0.0, as
// Kernel Tuner writes it) lists every evaluation of a run in order with its
// configuration, times and invalidity, so runs of different tuners and
// strategies can be compared by the same tools.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_T4_H
#define METACU_TUNE_T4_H

#include "Evaluator.h"
#include "SearchSpace.h"
#include "support/Output.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace metacu::tune {

/// The T4 document: {"schema_version": "1.0.0", "results": [...]}, one
/// result per evaluation in \p Trace order. \p Objective names the measured
/// quantity ("time", in milliseconds).
llvm::json::Value t4Results(const SearchSpace &Space,
                            llvm::ArrayRef<Evaluation> Trace,
                            llvm::StringRef Objective);
/// t4Results as the file \p Path (gzip-compressed for a ".gz" name).
llvm::Expected<OutputFile> t4File(llvm::StringRef Path,
                                  const SearchSpace &Space,
                                  llvm::ArrayRef<Evaluation> Trace,
                                  llvm::StringRef Objective);

} // namespace metacu::tune

#endif
