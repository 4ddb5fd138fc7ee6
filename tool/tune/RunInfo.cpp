//===- RunInfo.cpp - What the outputs of a run say about it ---------------===//
#include "RunInfo.h"

llvm::StringRef metacu::tune::metacuVersion() { return METACU_VERSION; }

std::string metacu::tune::currentDate() {
  return currentTimestamp().substr(0, 10);
}
