//===- Diagnose.h - What a report row means, in words ---------------------===//
//
// Sentences a kernel author can act on: a spill and what to change, why a
// configuration cannot launch, what limits occupancy and what would lift
// it by one block, a loop that makes the counts per iteration, shared-memory
// bank conflicts, a kernel too short of bytes in flight to hide DRAM
// latency.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_DIAGNOSE_H
#define METACU_REPORT_DIAGNOSE_H

#include "report/Report.h"

#include <string>
#include <vector>

namespace metacu::report {

/// \p R needs everything but its Diagnoses.
std::vector<std::string> diagnose(const KernelReport &R);

} // namespace metacu::report

#endif
