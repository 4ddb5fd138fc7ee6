//===- HtmlReport.h - A tuning run as one self-contained HTML page --------===//
//
// `--html out.html` writes what a run found for people to look at and
// share: how the best configuration improved with the evaluations, how each
// parameter affects the objective, the best configurations, the invalid
// ones by reason, and the run's metadata. One file with inline CSS and
// inline SVG, no script and nothing fetched, so it opens the same on a
// laptop, in a CI artifact viewer and on a machine without network; the
// points of the plots show their evaluation on hover (SVG <title>).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_HTMLREPORT_H
#define METACU_TUNE_HTMLREPORT_H

#include "RunInfo.h"
#include "SearchSpace.h"
#include "Tuner.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace metacu::tune {

/// The report's HTML, with the \p Top best configurations in its table. The
/// page is well-formed XML too (every element closed, only the five XML
/// entities), so XML tools can check or take it apart.
std::string renderHtmlReport(const RunInfo &Info, const SearchSpace &Space,
                             const TuneResult &Run, unsigned Top = 20);

} // namespace metacu::tune

#endif
