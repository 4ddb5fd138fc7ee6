//===- PreludePch.cpp -----------------------------------------------------===//
#include "migrate/PreludePch.h"
#include "support/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include <map>
#include <mutex>
#include <set>

namespace metacu {

/// Where the prelude is: the -include of clangCommandLine().
static std::optional<size_t> preludeAt(llvm::ArrayRef<std::string> Args) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-include" && Args[I + 1] == "cuda_runtime.h")
      return I;
  return std::nullopt;
}

/// Precompiled headers with compiler errors: Clang 22 finds some in the
/// toolkit's headers (math_functions.h's redeclarations), which a parse of
/// the prelude as text meets just the same; loaded, the header marks the
/// parse as having met errors, as the text would have.
static const char *const AllowErrors[] = {"-Xclang",
                                          "-fallow-pch-with-compiler-errors"};

std::vector<std::string> preludeBuildArgs(llvm::ArrayRef<std::string> Args,
                                          llvm::StringRef Main,
                                          llvm::ArrayRef<std::string> Extra) {
  std::optional<size_t> At = preludeAt(Args);
  if (!At || Args.size() < 2)
    return {};
  std::vector<std::string> Build;
  for (size_t I = 0; I + 1 < Args.size(); ++I) {
    // The user's -include files come after the prelude, as text.
    bool UserInclude =
        I > *At + 1 && llvm::StringRef(Args[I]).starts_with("-include");
    if (UserInclude && !Extra.empty())
      return {};
    if (!UserInclude)
      Build.push_back(Args[I]);
  }
  for (const std::string &E : Extra)
    Build.insert(Build.end(), {"-include", E});
  Build.insert(Build.end(), std::begin(AllowErrors), std::end(AllowErrors));
  Build.push_back(Main.str());
  return Build;
}

std::vector<std::string> leadingSystemIncludes(llvm::StringRef Text) {
  std::vector<std::string> Names;
  bool InComment = false;
  while (!Text.empty()) {
    llvm::StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    Line = Line.trim();
    // A line continued, or one a comment ends in, stops the reading.
    if (Line.ends_with("\\"))
      break;
    if (InComment) {
      size_t End = Line.find("*/");
      if (End != llvm::StringRef::npos &&
          Line.drop_front(End + 2).trim().empty())
        InComment = false;
      else if (End != llvm::StringRef::npos)
        break;
      continue;
    }
    if (Line.empty() || Line.starts_with("//"))
      continue;
    if (Line.starts_with("/*")) {
      size_t End = Line.find("*/", 2);
      if (End == llvm::StringRef::npos)
        InComment = true;
      else if (!Line.drop_front(End + 2).trim().empty())
        break;
      continue;
    }
    if (!Line.consume_front("#"))
      break;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      break;
    Line = Line.ltrim();
    if (!Line.consume_front("<"))
      break;
    size_t Close = Line.find('>');
    if (Close == 0 || Close == llvm::StringRef::npos)
      break;
    llvm::StringRef Rest = Line.drop_front(Close + 1).trim();
    if (!Rest.empty() && !Rest.starts_with("//"))
      break;
    Names.push_back(Line.take_front(Close).str());
  }
  return Names;
}

std::vector<std::string> withPreludePch(llvm::ArrayRef<std::string> Args,
                                        llvm::StringRef Pch) {
  std::vector<std::string> Out(Args.begin(), Args.end());
  std::optional<size_t> At = preludeAt(Args);
  if (!At)
    return Out;
  Out[*At] = "-include-pch";
  Out[*At + 1] = Pch.str();
  Out.insert(Out.end() - 1, std::begin(AllowErrors), std::end(AllowErrors));
  return Out;
}

std::vector<std::string> shadowingPaths(llvm::ArrayRef<std::string> BuildArgs,
                                        llvm::ArrayRef<std::string> Spelled) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::vector<std::string> Dirs = {std::string(Cwd)};
  for (size_t I = 0; I < BuildArgs.size(); ++I) {
    llvm::StringRef A = BuildArgs[I];
    for (llvm::StringRef Flag : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      if (!A.starts_with(Flag))
        continue;
      llvm::StringRef Dir = A.drop_front(Flag.size());
      if (Dir.empty() && I + 1 < BuildArgs.size())
        Dir = BuildArgs[++I];
      llvm::SmallString<256> Abs(Dir);
      llvm::sys::fs::make_absolute(Abs);
      Dirs.push_back(std::string(Abs));
      break;
    }
  }
  std::vector<std::string> Paths;
  for (const std::string &D : Dirs)
    for (const std::string &S : Spelled) {
      llvm::SmallString<256> P(D);
      llvm::sys::path::append(P, S);
      Paths.push_back(std::string(P));
    }
  return Paths;
}

void noteTestedValue(Facts &F, llvm::StringRef Name,
                     const std::string &Decimal) {
  auto [It, New] = F.TestedValues.try_emplace(Name.str(), Decimal);
  if (!New && It->second != Decimal)
    It->second.clear();
}

std::optional<std::string>
noteMacroDefined(Facts &F, llvm::StringRef Name,
                 llvm::ArrayRef<llvm::StringRef> Body,
                 llvm::function_ref<bool(size_t I)> DerivedAt) {
  unsigned Space = 0;
  bool Aliases = false;
  std::optional<std::string> Via;
  for (size_t I = 0; I < Body.size(); ++I) {
    llvm::StringRef TN = Body[I];
    bool Arch = TN == "__CUDA_ARCH__";
    Space |= F.Spaces.lookup(TN);
    Aliases |= Arch || F.Aliases.contains(TN);
    // Every name is asked: a pass's DerivedAt notes the definitions it
    // compares.
    if (Arch || (DerivedAt ? DerivedAt(I) : F.Derived.contains(TN)))
      if (!Via || Via->empty())
        Via = Arch ? "" : TN.str();
  }
  if (Space)
    F.Spaces[Name] |= Space;
  if (Via)
    F.Derived.insert(Name);
  if (Aliases)
    F.Aliases.insert(Name);
  return Via;
}

void applyPreludeNotes(llvm::StringRef Notes, Facts &F) {
  llvm::SmallVector<llvm::StringRef, 8> Words;
  while (!Notes.empty()) {
    llvm::StringRef Line;
    std::tie(Line, Notes) = Notes.split('\n');
    Words.clear();
    Line.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (Words.size() < 2)
      continue;
    llvm::StringRef Name = Words[1];
    if (Words[0] == "N") {
      F.NamedInMacros.insert(Name);
    } else if (Words[0] == "T") {
      noteTestedValue(F, Name, Words.size() > 3 ? Words[3].str() : "");
      if (Words.size() > 2 && Words[2] == "1")
        F.DefinedTests.insert(Name.str());
    } else if (Words[0] == "D") {
      llvm::ArrayRef<llvm::StringRef> Body =
          llvm::ArrayRef(Words).drop_front(2);
      for (llvm::StringRef TN : Body)
        F.NamedInMacros.insert(TN);
      noteMacroDefined(F, Name, Body);
    }
  }
}

/// Everything that shapes the header or its notes besides the files it
/// reads (their stamps are in its record): the command line, the
/// directory relative paths in it start from, Clang, and metacu itself
/// (its callbacks write the notes).
static std::string preludeName(llvm::ArrayRef<std::string> BuildArgs,
                               llvm::StringRef Kind) {
  llvm::SHA256 H;
  H.update(LLVM_VERSION_STRING);
  H.update(llvm::ArrayRef<uint8_t>{0});
  std::string Exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&preludeName));
  llvm::sys::fs::file_status St;
  if (!llvm::sys::fs::status(Exe, St))
    H.update(Exe + " " + std::to_string(St.getSize()) + " " +
             std::to_string(
                 St.getLastModificationTime().time_since_epoch().count()));
  H.update(llvm::ArrayRef<uint8_t>{0});
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  H.update(Cwd);
  for (const std::string &A : BuildArgs) {
    H.update(llvm::ArrayRef<uint8_t>{0});
    H.update(A);
  }
  auto Digest = H.final();
  std::string Hex;
  for (uint8_t B : llvm::ArrayRef<uint8_t>(Digest).take_front(12))
    Hex += llvm::utohexstr(B, /*LowerCase=*/true, /*Width=*/2);
  return (Kind + Hex + ".pch").str();
}

std::optional<StoredPch>
preludePch(llvm::StringRef CacheDir, llvm::ArrayRef<std::string> Args,
           llvm::ArrayRef<std::string> Extra,
           llvm::function_ref<std::optional<PchBuild>(
               llvm::ArrayRef<std::string> BuildArgs, llvm::StringRef Temp,
               PreludeRefusal &Why)>
               Build,
           size_t &Usable) {
  Usable = 0;
  if (CacheDir.empty())
    return std::nullopt;
  // The main file of the build: empty, kept beside the headers (Clang
  // checks that it is as it was when it loads one).
  llvm::SmallString<256> Main(CacheDir);
  llvm::sys::path::append(Main, "audit-prelude.h");
  std::vector<std::string> BuildArgs = preludeBuildArgs(Args, Main, Extra);
  if (BuildArgs.empty())
    return std::nullopt;
  // A unit's own headers make a prelude of their own kind: one per set of
  // them, kept apart from the preludes every unit shares.
  std::string Name =
      preludeName(BuildArgs, Extra.empty() ? "audit-prelude-" : "preamble-");
  // One build at a time: the threads of a run wait for it. A build that
  // failed is not tried again in this run.
  static std::mutex Lock;
  static std::map<std::string, size_t> Failed;
  std::lock_guard<std::mutex> Hold(Lock);
  std::string Id = Name + '\0' + CacheDir.str();
  if (auto It = Failed.find(Id); It != Failed.end()) {
    Usable = It->second;
    return std::nullopt;
  }
  llvm::SmallString<256> Path(CacheDir);
  llvm::sys::path::append(Path, Name);
  // Nor in a later run, where it refused the unit's headers.
  std::string UsableFile = (Path + ".usable").str();
  if (!Extra.empty())
    if (auto Kept = llvm::MemoryBuffer::getFile(UsableFile)) {
      unsigned long long N = 0;
      if (!llvm::getAsUnsignedInteger((*Kept)->getBuffer().trim(), 10, N))
        Usable = std::min<size_t>(N, Extra.size() - 1);
      Failed[Id] = Usable;
      return std::nullopt;
    }
  // A command line met once (a test's, a file with flags of its own) is
  // not worth a build, which costs more than a parse of the text: the
  // second parse with it builds, in this run or a later one.
  std::string Wanted = (Path + ".wanted").str();
  if (!llvm::sys::fs::exists(Path) && !llvm::sys::fs::exists(Wanted)) {
    if (!llvm::sys::fs::create_directories(CacheDir))
      if (int FD; !llvm::sys::fs::openFileForWrite(
              Wanted, FD, llvm::sys::fs::CD_OpenAlways))
        llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    return std::nullopt;
  }
  if (!llvm::sys::fs::exists(Main)) {
    int FD;
    if (llvm::sys::fs::openFileForWrite(Main, FD,
                                        llvm::sys::fs::CD_OpenAlways)) {
      Failed[Id] = 0;
      return std::nullopt;
    }
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  // One per pass a project's parses need (up to 13) and per set of flags;
  // as many again of units' own headers.
  PreludeRefusal Why;
  bool Built = false;
  std::optional<StoredPch> Stored =
      storedPch(CacheDir, Name, /*Keep=*/32, [&](llvm::StringRef Temp) {
        Built = true;
        return Build(BuildArgs, Temp, Why);
      });
  if (!Stored) {
    Usable = Extra.empty() ? 0 : std::min(Why.Usable, Extra.size() - 1);
    Failed[Id] = Usable;
    // A cache: a failure to write it is not the run's.
    if (Built && !Extra.empty())
      llvm::consumeError(
          writeOutput(UsableFile, std::to_string(Usable) + "\n"));
  }
  llvm::sys::fs::remove(Wanted);
  return Stored;
}

} // namespace metacu
