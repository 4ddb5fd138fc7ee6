//===- ScanFuzzer.cpp - libFuzzer target for the scan and lower stages ----===//
//
// Arbitrary bytes must never crash metacu: the scanner returns nodes or a
// located error, and lowering the tree (without the host slice, which needs
// a Clang parse) returns a program or a located error.
//
//===----------------------------------------------------------------------===//
#include "toolchain/Arch.h"
#include "expand/HostSlice.h"
#include "expand/Lower.h"
#include "expand/MetaNames.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  metacu::SourceFile File("fuzz.cu",
                          std::string(reinterpret_cast<const char *>(Data),
                                      Size));
  auto Scan = metacu::scan(File);
  if (!Scan) {
    llvm::consumeError(Scan.takeError());
    return 0;
  }
  (void)metacu::metaIdentifiers(*Scan);
  (void)metacu::maskMetaConstructs(File, *Scan);
  static const metacu::ArchList Archs =
      llvm::cantFail(metacu::ArchList::parse("75,80,90a"));
  auto G = metacu::lower(File, *Scan, metacu::HostSliceResult(), Archs);
  if (!G)
    llvm::consumeError(G.takeError());
  return 0;
}
