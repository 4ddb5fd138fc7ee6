//===- RunInfo.cpp - What the outputs of a run say about it ---------------===//
#include "RunInfo.h"

#include "llvm/Support/FormatVariadic.h"

llvm::StringRef metacu::tune::metacuVersion() { return METACU_VERSION; }

std::string metacu::tune::currentDate() {
  return currentTimestamp().substr(0, 10);
}

std::string metacu::tune::runHeading(const RunInfo &Info) {
  if (Info.Where.Device.empty())
    return Info.Kernel + " for " + Info.Where.Arch;
  return llvm::formatv("{0} on {1} ({2})", Info.Kernel, Info.Where.Device,
                       Info.Where.Arch)
      .str();
}

std::string metacu::tune::imageNote(llvm::StringRef Image, llvm::StringRef Arch,
                                    llvm::StringRef Device) {
  if (Image.empty() || Image == Arch)
    return "";
  return (Image + " image run on " + (Device.empty() ? "the GPU" : Device))
      .str();
}
