//===- Ptxas.cpp ----------------------------------------------------------===//
#include "report/Ptxas.h"

#include "report/BuildCache.h"

#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>

namespace metacu::report {

// "368 bytes cmem[0]" -> 368; false if Item does not start with a number.
static bool leadingNumber(llvm::StringRef Item, uint64_t &N) {
  llvm::StringRef Digits = Item.ltrim().take_while(llvm::isDigit);
  return !Digits.empty() && !Digits.getAsInteger(10, N);
}

static llvm::Error malformed(llvm::StringRef Line) {
  return llvm::createStringError("unexpected ptxas output: '" + Line.str() +
                                 "'");
}

// "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
static llvm::Error parseFrameLine(llvm::StringRef Line, KernelResources &K) {
  llvm::SmallVector<llvm::StringRef, 4> Items;
  Line.split(Items, ',');
  for (llvm::StringRef Item : Items) {
    uint64_t N;
    if (!leadingNumber(Item, N))
      return malformed(Line);
    Item = Item.trim();
    if (Item.ends_with("stack frame"))
      K.StackBytes = N;
    else if (Item.ends_with("spill stores"))
      K.SpillStoreBytes = N;
    else if (Item.ends_with("spill loads"))
      K.SpillLoadBytes = N;
  }
  return llvm::Error::success();
}

// "Used 30 registers, used 1 barriers, 4160 bytes smem, 368 bytes cmem[0]"
static llvm::Error parseUsedLine(llvm::StringRef Line, KernelResources &K) {
  llvm::SmallVector<llvm::StringRef, 6> Items;
  Line.split(Items, ',');
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    uint64_t N;
    if (Item.consume_front_insensitive("used ")) {
      if (!leadingNumber(Item, N))
        return malformed(Line);
      if (Item.ends_with("registers"))
        K.Registers = N;
      else if (Item.ends_with("barriers"))
        K.Barriers = N;
      continue;
    }
    if (!leadingNumber(Item, N))
      return malformed(Line);
    if (Item.ends_with("bytes smem"))
      K.StaticSharedBytes = N;
    else if (Item.contains("bytes cmem["))
      K.ConstantBytes += N;
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<KernelResources>>
parsePtxasLog(llvm::StringRef Log, std::vector<KernelResources> *Functions) {
  std::vector<KernelResources> Kernels;
  // Non-entry functions have properties lines too; they belong to no kernel.
  bool FrameLineIsCurrent = false, FrameLineIsOther = false;
  std::string Other;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef Line = Raw.trim();
    if (FrameLineIsCurrent || FrameLineIsOther) {
      bool Current = FrameLineIsCurrent;
      FrameLineIsCurrent = FrameLineIsOther = false;
      if (Current) {
        if (auto Err = parseFrameLine(Line, Kernels.back()))
          return std::move(Err);
      } else if (Functions) {
        Functions->push_back({});
        Functions->back().Mangled = Other;
        if (auto Err = parseFrameLine(Line, Functions->back()))
          return std::move(Err);
      }
      continue;
    }
    if (!Line.consume_front("ptxas info"))
      continue;
    Line = Line.ltrim().drop_while([](char C) { return C == ':'; }).trim();
    if (Line.consume_front("Compiling entry function '")) {
      Kernels.push_back({});
      Kernels.back().Mangled =
          Line.take_until([](char C) { return C == '\''; });
    } else if (Line.consume_front("Function properties for ")) {
      FrameLineIsCurrent = !Kernels.empty() && Line == Kernels.back().Mangled;
      FrameLineIsOther = !FrameLineIsCurrent;
      Other = Line.str();
    } else if (Line.starts_with("Used ")) {
      if (Kernels.empty())
        return malformed(Line);
      if (auto Err = parseUsedLine(Line, Kernels.back()))
        return std::move(Err);
    }
  }
  return Kernels;
}

std::string kernelName(llvm::StringRef Mangled) {
  llvm::ItaniumPartialDemangler D;
  std::string M = Mangled.str();
  if (D.partialDemangle(M.c_str()) || !D.isFunction())
    return M;
  size_t Size = 0;
  char *Base = D.getFunctionBaseName(nullptr, &Size);
  if (!Base)
    return M;
  std::string Name(Base);
  std::free(Base);
  return Name;
}

std::string findNvcc(llvm::StringRef CudaPath) {
  llvm::SmallString<256> P(findCudaRoot(CudaPath));
  llvm::sys::path::append(P, "bin", "nvcc");
  return std::string(P);
}

std::vector<std::string> nvccArgs(const CompileFlags &Flags,
                                  llvm::StringRef RuntimeInclude,
                                  llvm::StringRef InputDir) {
  std::vector<std::string> Args{"-I" + RuntimeInclude.str(),
                                "-I" + InputDir.str()};
  // Clang's joined -isystem<dir> and -include<file> are two arguments to
  // nvcc.
  for (const std::string &A : Flags.Args) {
    llvm::StringRef S = A;
    if (S.consume_front("-isystem"))
      Args.insert(Args.end(), {"-isystem", S.str()});
    else if (S.consume_front("-include"))
      Args.insert(Args.end(), {"-include", S.str()});
    else
      Args.push_back(A);
  }
  if (!Flags.Standard.empty())
    Args.push_back("-std=" + Flags.Standard);
  return Args;
}

namespace {
struct Job {
  std::vector<std::string> Args;
  std::string LogPath;
};
} // namespace

// Runs every job at once and waits for all; the first failure is returned
// with the log of the job that failed (nvcc's errors point at the user's
// file through the generated file's #line directives).
static llvm::Error runAll(const std::string &Program,
                          llvm::ArrayRef<Job> Jobs) {
  std::vector<llvm::sys::ProcessInfo> Running;
  for (const Job &J : Jobs) {
    llvm::SmallVector<llvm::StringRef, 16> Args(J.Args.begin(), J.Args.end());
    std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(),
                                                  llvm::StringRef(J.LogPath),
                                                  llvm::StringRef(J.LogPath)};
    std::string Err;
    bool Failed = false;
    Running.push_back(llvm::sys::ExecuteNoWait(Program, Args, std::nullopt,
                                               Redirects, 0, &Err, &Failed));
    if (Failed) {
      for (auto &PI : llvm::ArrayRef(Running).drop_back())
        llvm::sys::Wait(PI, std::nullopt);
      return llvm::createStringError("cannot run " + Program + ": " + Err);
    }
  }
  llvm::Error First = llvm::Error::success();
  for (size_t I = 0; I < Jobs.size(); ++I) {
    std::string Err;
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(Running[I], std::nullopt, &Err);
    if (Done.ReturnCode == 0 || First)
      continue;
    auto Log = llvm::MemoryBuffer::getFile(Jobs[I].LogPath);
    std::string Text = Log ? (*Log)->getBuffer().rtrim().str() : Err;
    First = llvm::createStringError(llvm::join(Jobs[I].Args, " ") +
                                    " failed:\n" + Text);
  }
  return First;
}

static llvm::Expected<std::string> readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError("cannot read " + Path + ": " +
                                   Buffer.getError().message());
  return (*Buffer)->getBuffer().str();
}

llvm::Expected<std::vector<ArchBuild>> buildForArchs(llvm::StringRef GenFile,
                                                     llvm::ArrayRef<Arch> Archs,
                                                     const NvccOptions &Opts) {
  std::string Key;
  if (!Opts.CacheDir.empty()) {
    auto Text = readFile(GenFile.str());
    if (!Text)
      return Text.takeError();
    Key = buildKey(*Text, Archs, Opts);
    if (auto Stored = lookupBuilds(Opts.CacheDir, Key, Archs))
      return std::move(*Stored);
  }
  auto InWorkDir = [&](const std::string &Name) {
    llvm::SmallString<256> P(Opts.WorkDir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  };
  // PTX first, then ptxas on it: the same two steps nvcc -cubin takes, with
  // the PTX kept for counting.
  std::vector<Job> ToPtx, ToCubin;
  for (const Arch &A : Archs) {
    std::string Stem = InWorkDir(A.name());
    std::string PtxArch = Opts.PtxArch.empty() ? A.name() : Opts.PtxArch;
    Job P{{Opts.Nvcc, "-ptx", "-arch=" + PtxArch}, Stem + ".ptx.log"};
    P.Args.insert(P.Args.end(), Opts.Args.begin(), Opts.Args.end());
    P.Args.insert(P.Args.end(), {GenFile.str(), "-o", Stem + ".ptx"});
    ToPtx.push_back(std::move(P));
    ToCubin.push_back({{Opts.Nvcc, "-cubin", "-arch=" + A.name(), "-Xptxas",
                        "-v", Stem + ".ptx", "-o", Stem + ".cubin"},
                       Stem + ".ptxas.log"});
  }
  if (auto Err = runAll(Opts.Nvcc, ToPtx))
    return std::move(Err);
  if (auto Err = runAll(Opts.Nvcc, ToCubin))
    return std::move(Err);

  std::vector<ArchBuild> Builds;
  for (size_t I = 0; I < Archs.size(); ++I) {
    std::string Stem = InWorkDir(Archs[I].name());
    auto Ptx = readFile(Stem + ".ptx");
    if (!Ptx)
      return Ptx.takeError();
    auto Log = readFile(Stem + ".ptxas.log");
    if (!Log)
      return Log.takeError();
    Builds.push_back({Archs[I], std::move(*Ptx), std::move(*Log)});
  }
  if (!Key.empty())
    if (llvm::Error Err = storeBuilds(Opts.CacheDir, Key, Builds))
      return std::move(Err);
  return Builds;
}

} // namespace metacu::report
