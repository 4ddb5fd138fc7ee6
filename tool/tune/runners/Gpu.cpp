//===- Gpu.cpp - The runner that compiles and times candidates on GPUs ----===//
#include "Gpu.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <thread>
#include <unistd.h>

using namespace metacu::tune;

/// Runs \p Args, returning its stdout; fails on a nonzero exit.
static llvm::Expected<std::string> capture(llvm::ArrayRef<std::string> Args,
                                           llvm::StringRef What) {
  auto Exe = llvm::sys::findProgramByName(Args[0]);
  if (!Exe)
    return llvm::createStringError(What + ": cannot find " + Args[0]);
  llvm::SmallString<128> Out;
  int FD;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("metacu-tune", "out", FD, Out))
    return llvm::createStringError(What + ": " + EC.message());
  ::close(FD);
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Out.str(),
                                                std::nullopt};
  std::string Error;
  int RC = llvm::sys::ExecuteAndWait(*Exe, Argv, std::nullopt, Redirects, 0, 0,
                                     &Error);
  auto Buf = llvm::MemoryBuffer::getFile(Out);
  llvm::sys::fs::remove(Out);
  if (RC != 0)
    return llvm::createStringError(What + " failed" +
                                   (Error.empty() ? "" : ": " + Error) +
                                   llvm::formatv(" (exit status {0})", RC));
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

llvm::Expected<std::unique_ptr<GpuRunner>>
GpuRunner::create(const DeclaredSpace &D, const SearchSpace &Space,
                  GpuRunnerOptions Options, Generator Generate) {
  std::string First = llvm::StringRef(Options.Gpus).split(',').first.str();
  if (First == "all")
    First = "0";
  auto Query = capture({"nvidia-smi", "--query-gpu=name,driver_version",
                        "--format=csv,noheader", "-i", First},
                       "nvidia-smi (is there a GPU?)");
  if (!Query)
    return Query.takeError();
  auto [Name, Driver] = llvm::StringRef(*Query).trim().split(',');
  std::unique_ptr<GpuRunner> R(new GpuRunner(D, Space));
  R->Where = {Options.Bundle.Arch, Name.trim().str()};
  R->Driver = Driver.trim().str();
  R->Batch = std::max(1u, Options.Bundle.BatchSize);
  R->Options = std::move(Options);
  R->Generate = std::move(Generate);
  return std::move(R);
}

unsigned GpuRunner::roundSize() const {
  unsigned Workers =
      Options.Jobs ? Options.Jobs : std::thread::hardware_concurrency();
  return std::clamp(Workers, 1u, Batch);
}

llvm::Error GpuRunner::run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) {
  std::string Dir = llvm::formatv("{0}/round_{1}", Options.WorkDir, Round++);
  // The round is one translation unit: one expansion (whose fixed cost
  // dominates for a few candidates), which run.py compiles over the cores
  // in shards.
  BundleOptions B = Options.Bundle;
  B.BatchSize = std::max<size_t>(1, Configs.size());
  // The rounds are metacu's scratch folders, their results read back (and
  // journaled) as soon as run.py ends: an earlier run's may be replaced.
  B.Force = true;
  if (llvm::Error E =
          writeBundle(Dir, Declared, Space, Configs, B,
                      [&](llvm::ArrayRef<Candidate> C) { return Generate(C); }))
    return E;
  std::vector<std::string> Args{
      Options.Python, Dir + "/run.py",
      "--gpus",       Options.Gpus,
      "--nvcc",       Options.Nvcc,
      "--timeout",    llvm::formatv("{0}", Options.Timeout).str()};
  if (Options.Jobs)
    Args.insert(Args.end(), {"--jobs", std::to_string(Options.Jobs)});
  if (auto Out = capture(Args, Dir + "/run.py"); !Out)
    return Out.takeError();
  auto Results = readBundle(Dir);
  if (!Results)
    return Results.takeError();
  llvm::DenseMap<uint32_t, size_t> Position;
  for (size_t I = 0; I < Configs.size(); ++I)
    Position[Configs[I]] = I;
  for (auto &[Config, M] : Results->Results)
    if (!Done(Position.lookup(Config), std::move(M)))
      break;
  if (Results->Results.size() < Configs.size())
    return llvm::createStringError(llvm::formatv(
        "{0}: {1} of {2} candidates have no result", Dir,
        Configs.size() - Results->Results.size(), Configs.size()));
  return llvm::Error::success();
}
