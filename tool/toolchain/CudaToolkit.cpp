//===- CudaToolkit.cpp ----------------------------------------------------===//
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

namespace metacu {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string findCudaRoot(llvm::StringRef CudaPath) {
  if (!CudaPath.empty())
    return CudaPath.str();
  for (const char *Var : {"CUDAToolkit_ROOT", "CUDA_PATH"})
    if (const char *V = std::getenv(Var); V && *V)
      return V;
  // Distributions link /usr/bin/nvcc into the toolkit; its root is where
  // the link leads.
  if (llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!fs::real_path(*Nvcc, Real))
      return path::parent_path(path::parent_path(Real)).str();
  }
  return "/usr/local/cuda";
}

namespace {

/// The variables nvcc sets before it reads nvcc.profile, as `nvcc --dryrun`
/// prints them.
llvm::StringMap<std::string> profileBuiltins(llvm::StringRef Root) {
  llvm::SmallString<256> Bin(Root);
  path::append(Bin, "bin");
  // nvcc compiles for the host it runs on; its headers and libraries live
  // under targets/<that host>, where the toolkit has such a folder.
  llvm::Triple Host(llvm::sys::getProcessTriple());
  std::string TargetDir =
      Host.getArch() == llvm::Triple::aarch64  ? "targets/sbsa-linux"
      : Host.getArch() == llvm::Triple::x86_64 ? "targets/x86_64-linux"
                                               : "";
  llvm::SmallString<256> Probe(Root);
  path::append(Probe, TargetDir);
  if (TargetDir.empty() || !fs::is_directory(Probe))
    TargetDir.clear();
  return {{"_HERE_", Bin.str().str()},
          {"_THERE_", Bin.str().str()},
          {"_TARGET_DIR_", TargetDir},
          {"_TARGET_SIZE_", ""},
          {"_SPACE_", " "}};
}

/// $(NAME) replaced by the profile's variable, else the environment's.
std::string expand(llvm::StringRef Text,
                   const llvm::StringMap<std::string> &Vars) {
  std::string Out;
  while (!Text.empty()) {
    size_t Ref = Text.find("$(");
    size_t Close = Ref == llvm::StringRef::npos ? Ref : Text.find(')', Ref);
    if (Close == llvm::StringRef::npos) {
      Out += Text;
      break;
    }
    Out += Text.take_front(Ref);
    llvm::StringRef Name = Text.slice(Ref + 2, Close);
    if (auto It = Vars.find(Name); It != Vars.end())
      Out += It->second;
    else if (const char *E = std::getenv(Name.str().c_str()))
      Out += E;
    Text = Text.drop_front(Close + 1);
  }
  return Out;
}

/// Shell words: blanks separate them, quotes group.
std::vector<std::string> words(llvm::StringRef Text) {
  std::vector<std::string> Words;
  std::string Word;
  bool InWord = false;
  char Quote = 0;
  for (char C : Text) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Word += C;
    } else if (C == '"' || C == '\'') {
      Quote = C;
      InWord = true;
    } else if (llvm::isSpace(C)) {
      if (InWord)
        Words.push_back(std::move(Word));
      Word.clear();
      InWord = false;
    } else {
      Word += C;
      InWord = true;
    }
  }
  if (InWord)
    Words.push_back(std::move(Word));
  return Words;
}

/// The variables of nvcc.profile after reading it: `NAME = VALUE`,
/// `NAME += VALUE` (append), `NAME =+ VALUE` (prepend), `NAME ?= VALUE`
/// (if unset), values expanded as they are read.
llvm::StringMap<std::string> readProfile(llvm::StringRef Text,
                                         llvm::StringRef Root) {
  llvm::StringMap<std::string> Vars = profileBuiltins(Root);
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    size_t Eq = Line.find('=');
    if (Line.starts_with("#") || Eq == llvm::StringRef::npos || Eq == 0)
      continue;
    char Before = Line[Eq - 1];
    char After = Eq + 1 < Line.size() ? Line[Eq + 1] : 0;
    bool Append = Before == '+', IfUnset = Before == '?',
         Prepend = After == '+';
    llvm::StringRef Name =
        Line.take_front(Append || IfUnset ? Eq - 1 : Eq).trim();
    std::string Value =
        expand(Line.drop_front(Prepend ? Eq + 2 : Eq + 1).trim(), Vars);
    std::string &Var = Vars[Name];
    if (Append)
      Var += Value;
    else if (Prepend)
      Var = Value + Var;
    else if (!IfUnset || Var.empty())
      Var = Value;
  }
  return Vars;
}

std::string normalized(llvm::StringRef Dir) {
  llvm::SmallString<256> P(Dir);
  path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

/// Takes the -I, -isystem and -D flags of \p Flags (one or two words each).
void addFlags(CudaToolkit &TK, const std::vector<std::string> &Flags) {
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef F = Flags[I];
    for (llvm::StringRef Spelling : {"-isystem", "-I", "-D"}) {
      if (!F.consume_front(Spelling))
        continue;
      std::string Value = !F.empty()             ? F.str()
                          : I + 1 < Flags.size() ? Flags[++I]
                                                 : "";
      if (Value.empty())
        break;
      if (Spelling == "-D")
        TK.Defines.push_back(Value);
      else
        TK.IncludeDirs.push_back(normalized(Value));
      break;
    }
  }
}

/// "13.0.88" as nvcc's version, from version.json, which toolkit installers
/// write beside bin/; false if there is none.
bool readNvccVersion(CudaToolkit &TK) {
  llvm::SmallString<256> P(TK.Root);
  path::append(P, "version.json");
  auto Buf = llvm::MemoryBuffer::getFile(P);
  if (!Buf)
    return false;
  llvm::Expected<llvm::json::Value> J = llvm::json::parse((*Buf)->getBuffer());
  if (!J) {
    llvm::consumeError(J.takeError());
    return false;
  }
  const llvm::json::Object *Root = J->getAsObject();
  const llvm::json::Object *Nvcc =
      Root ? Root->getObject("cuda_nvcc") : nullptr;
  std::optional<llvm::StringRef> V =
      Nvcc ? Nvcc->getString("version") : std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  if (!V)
    return false;
  V->split(Parts, '.');
  if (Parts.size() < 2 || Parts[0].getAsInteger(10, TK.Major) ||
      Parts[1].getAsInteger(10, TK.Minor))
    return false;
  if (Parts.size() > 2 && Parts[2].getAsInteger(10, TK.Build))
    TK.Build = 0;
  return true;
}

/// The runtime API version from CUDA_VERSION in the first cuda.h on the
/// toolkit's include path.
void readApiVersion(CudaToolkit &TK) {
  for (const std::string &Dir : TK.IncludeDirs) {
    llvm::SmallString<256> P(Dir);
    path::append(P, "cuda.h");
    auto Buf = llvm::MemoryBuffer::getFile(P);
    if (!Buf)
      continue;
    llvm::StringRef Text = (*Buf)->getBuffer();
    size_t Def = Text.find("#define CUDA_VERSION ");
    unsigned V = 0;
    if (Def == llvm::StringRef::npos ||
        Text.drop_front(Def + 21).ltrim().consumeInteger(10, V))
      return;
    TK.ApiMajor = V / 1000;
    TK.ApiMinor = V % 1000 / 10;
    return;
  }
}

} // namespace

CudaToolkit CudaToolkit::load(llvm::StringRef Root) {
  CudaToolkit TK;
  TK.Root = Root.str();
  llvm::SmallString<256> Profile(Root);
  path::append(Profile, "bin", "nvcc.profile");
  if (auto Buf = llvm::MemoryBuffer::getFile(Profile)) {
    llvm::StringMap<std::string> Vars = readProfile((*Buf)->getBuffer(), Root);
    addFlags(TK, words(Vars.lookup("INCLUDES")));
    addFlags(TK, words(Vars.lookup("SYSTEM_INCLUDES")));
  } else {
    // Headers without nvcc (a toolkit unpacked for its headers): the
    // layout every CUDA 13 toolkit has.
    llvm::SmallString<256> Include(Root);
    path::append(Include, "include");
    TK.IncludeDirs.push_back(Include.str().str());
    path::append(Include, "cccl");
    if (fs::is_directory(Include))
      TK.IncludeDirs.push_back(Include.str().str());
  }
  readApiVersion(TK);
  // The compiler ships with the toolkit: without a record of its own
  // version, it is the runtime's.
  if (!readNvccVersion(TK)) {
    TK.Major = TK.ApiMajor;
    TK.Minor = TK.ApiMinor;
  }
  return TK;
}

const CudaToolkit &CudaToolkit::find(llvm::StringRef CudaPath) {
  static std::mutex Lock;
  static std::map<std::string, CudaToolkit> Known;
  std::string Root = findCudaRoot(CudaPath);
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Known.find(Root);
  if (It == Known.end())
    It = Known.emplace(Root, load(Root)).first;
  return It->second;
}

std::vector<std::string> CudaToolkit::nvccMacros(bool DevicePass) const {
  std::vector<std::string> M;
  if (DevicePass)
    M.push_back("CUDA_DOUBLE_MATH_FUNCTIONS");
  M.insert(M.end(), {"__CUDACC__", "__NVCC__"});
  llvm::append_range(M, Defines);
  if (Major) {
    M.push_back("__CUDACC_VER_MAJOR__=" + std::to_string(Major));
    M.push_back("__CUDACC_VER_MINOR__=" + std::to_string(Minor));
    if (Build)
      M.push_back("__CUDACC_VER_BUILD__=" + std::to_string(Build));
  }
  if (ApiMajor) {
    M.push_back("__CUDA_API_VER_MAJOR__=" + std::to_string(ApiMajor));
    M.push_back("__CUDA_API_VER_MINOR__=" + std::to_string(ApiMinor));
  }
  M.insert(M.end(), {"__NVCC_DIAG_PRAGMA_SUPPORT__=1",
                     "__CUDACC_DEVICE_ATOMIC_BUILTINS__=1"});
  return M;
}

} // namespace metacu
