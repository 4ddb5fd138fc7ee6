//===- TuneJSONFuzzer.cpp - libFuzzer targets for the files tune reads ----===//
//
// Arbitrary bytes as any JSON file `metacu tune` reads must never crash or
// hang it: each reader returns its value or an error. One executable per
// reader (METACU_TUNE_FUZZ_READER names it), so each has its own corpus and
// coverage: the tuning file, the journal, a Kernel Tuner cache (parsed, and
// streamed as --replay reads it), a bundle's manifest and its results, a
// predictions file and a tune_space's description.
//
//===----------------------------------------------------------------------===//
#include "tune/Bundle.h"
#include "tune/JSONError.h"
#include "tune/KernelTunerCache.h"
#include "tune/Predictions.h"
#include "tune/Journal.h"
#include "tune/TuningFile.h"
#include "tune/runners/ReplayRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>

using namespace metacu::tune;

/// A space described as generator.h describes one: 2 x 3 x 2 = 12
/// configurations, 5 valid.
static const char *const Described =
    R"({"kernel": "k", "where": "k.cu:3", "params": [)"
    R"({"name": "bx", "values": [32, 64]}, {"name": "tile", "values": [1, 2, 4]},)"
    R"({"name": "ldg", "values": [false, true]}], "valid": [0,1,3,7,11],)"
    R"("problem_size": [1024], "metric": "GFLOP/s", "work": 2.5,)"
    R"("direction": "max", "tolerance": 0.0001})";

/// A folder of the process's own, emptied of \p Names before each input.
static std::string scratch(std::initializer_list<const char *> Names) {
  static std::string Dir = [] {
    llvm::SmallString<128> D;
    if (llvm::sys::fs::createUniqueDirectory("metacu-tune-fuzz", D))
      abort();
    return std::string(D);
  }();
  for (const char *N : Names)
    llvm::sys::fs::remove(Dir + "/" + N);
  return Dir;
}

static void write(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    abort();
  OS << Text;
}

template <typename T> static void drop(llvm::Expected<T> E) {
  if (!E)
    llvm::consumeError(E.takeError());
}

static void drop(llvm::Error E) { llvm::consumeError(std::move(E)); }

/// A manifest of \p Described's 5 configurations, in one batch.
static std::string manifest() {
  return std::string(R"({"format": 2, "declared": )") + Described +
         R"(, "arch": "sm_90", "image": "sm_90", "strategy": "brute_force",)"
         R"( "batches": [{"source": "batch_0.cu", "candidates": [)"
         R"({"config": 0}, {"config": 1}, {"config": 2}, {"config": 3},)"
         R"( {"config": 4}]}], "failed": []})";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
#if METACU_TUNE_FUZZ_READER == 1 // tuning file
  drop(TuningFile::parse(Text, "fuzz.tuning.json"));
#elif METACU_TUNE_FUZZ_READER == 2 // journal
  std::string Dir = scratch({"journal.jsonl"});
  write(Dir + "/journal.jsonl", Text);
  drop(Journal::open(Dir + "/journal.jsonl"));
#elif METACU_TUNE_FUZZ_READER == 3 // Kernel Tuner cache
  auto C = KernelTunerCache::parse(Text, "fuzz.json");
  if (!C) {
    llvm::consumeError(C.takeError());
    return 0;
  }
  if (auto Space = C->recordedSpace())
    for (const KernelTunerCache::Entry &E : C->Entries)
      drop(C->measurement(E));
  else
    llvm::consumeError(Space.takeError());
  // What --replay does with a file: streamed, each entry kept compactly.
  std::string Dir = scratch({"cache.json"});
  write(Dir + "/cache.json", Text);
  KernelTunerCache Header;
  SearchSpace Recorded;
  drop(ReplayRunner::read(Dir + "/cache.json", Header, Recorded));
#elif METACU_TUNE_FUZZ_READER == 4 // bundle manifest
  std::string Dir = scratch({"manifest.json", "results.jsonl"});
  write(Dir + "/manifest.json", Text);
  write(Dir + "/results.jsonl", "");
  drop(readBundle(Dir));
#elif METACU_TUNE_FUZZ_READER == 5 // bundle results
  std::string Dir = scratch({"manifest.json", "results.jsonl"});
  write(Dir + "/manifest.json", manifest());
  write(Dir + "/results.jsonl", Text);
  drop(readBundle(Dir));
#elif METACU_TUNE_FUZZ_READER == 6 // predictions
  static const SearchSpace Space = llvm::cantFail(
      llvm::cantFail(DeclaredSpace::parse(Described, "k.cu")).searchSpace());
  auto V = parseJSON(Text, "fuzz.json");
  if (!V) {
    llvm::consumeError(V.takeError());
    return 0;
  }
  drop(Predictions::fromJSON(*V, Space, "fuzz.json"));
#elif METACU_TUNE_FUZZ_READER == 7 // a tune_space's description
  auto D = DeclaredSpace::parse(Text, "k.cu");
  if (D)
    drop(D->searchSpace());
  else
    llvm::consumeError(D.takeError());
#else
#error "METACU_TUNE_FUZZ_READER names no reader"
#endif
  return 0;
}
