//===- CompileFlags.cpp ---------------------------------------------------===//
#include "toolchain/CompileFlags.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <optional>

namespace metacu {

void CompileFlags::addFromCommandLine(
    const std::vector<std::string> &CL, llvm::StringRef Directory) {
  for (size_t I = 1; I < CL.size(); ++I)
    consume(CL, I, Directory);
}

bool CompileFlags::consume(const std::vector<std::string> &CL, size_t &I,
                           llvm::StringRef Directory) {
  // The preprocessor flags in the spellings nvcc, gcc and clang accept.
  // Short ones may be joined to their value (-Idir), long ones take '='.
  struct Flag {
    llvm::StringRef Spelling, Clang;
    bool IsPath;
  };
  static const Flag Flags[] = {
      {"-I", "-I", true},           {"--include-path", "-I", true},
      {"-isystem", "-isystem", true}, {"--system-include", "-isystem", true},
      {"-include", "-include", true}, {"--pre-include", "-include", true},
      {"-D", "-D", false},          {"--define-macro", "-D", false},
      {"-U", "-U", false},          {"--undefine-macro", "-U", false}};
  llvm::StringRef A = CL[I];
  if (A == "-std" || A == "--std") {
    if (I + 1 < CL.size())
      Standard = CL[++I];
    return true;
  }
  if (A.consume_front("-std=") || A.consume_front("--std=")) {
    Standard = A.str();
    return true;
  }
  for (const Flag &F : Flags) {
    llvm::StringRef V;
    if (A == F.Spelling) {
      // A flag missing its value at the end is dropped.
      if (I + 1 == CL.size())
        return true;
      V = CL[++I];
    } else if (A.starts_with(F.Spelling)) {
      V = A.drop_front(F.Spelling.size());
      bool Long = F.Spelling.starts_with("--");
      if (!V.consume_front("=") && Long)
        continue;
    } else {
      continue;
    }
    llvm::SmallString<256> Value(V);
    if (F.IsPath && !llvm::sys::path::is_absolute(Value) && !Directory.empty())
      llvm::sys::path::make_absolute(Directory, Value);
    Args.push_back((F.Clang + Value).str());
    return true;
  }
  return false;
}

/// The file metacu_target_sources generates from \p File, as
/// metacu_sources.json in \p BuildDir records it: [{"file": ..., "output":
/// ...}, ...], absolute paths. None where there is no such file or entry.
static llvm::Expected<std::optional<std::string>>
generatedFrom(llvm::StringRef BuildDir, llvm::StringRef File) {
  llvm::SmallString<256> Path(BuildDir);
  llvm::sys::path::append(Path, "metacu_sources.json");
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  auto Bad = [&](llvm::Twine Why) {
    return llvm::createStringError("cannot read '" + Path + "': " + Why);
  };
  auto Json = llvm::json::parse((*Buffer)->getBuffer());
  if (!Json)
    return Bad(llvm::toString(Json.takeError()));
  const llvm::json::Array *Entries = Json->getAsArray();
  if (!Entries)
    return Bad("not an array");
  for (const llvm::json::Value &E : *Entries) {
    const llvm::json::Object *O = E.getAsObject();
    auto In = O ? O->getString("file") : std::nullopt;
    auto Out = O ? O->getString("output") : std::nullopt;
    if (!In || !Out)
      return Bad("an entry without 'file' and 'output'");
    llvm::SmallString<256> Entry(*In);
    llvm::sys::path::remove_dots(Entry, /*remove_dot_dot=*/true);
    if (Entry == File)
      return Out->str();
  }
  return std::nullopt;
}

llvm::Error CompileFlags::addFromDatabase(llvm::StringRef BuildDir,
                                          llvm::StringRef File) {
  std::string Err;
  auto DB = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir,
                                                                   Err);
  if (!DB)
    return llvm::createStringError("cannot load compile_commands.json from "
                                   "'%s': %s",
                                   BuildDir.str().c_str(), Err.c_str());
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  auto Generated = generatedFrom(BuildDir, Abs);
  if (!Generated)
    return Generated.takeError();
  if (*Generated)
    Abs = **Generated;
  auto Commands = DB->getCompileCommands(Abs);
  if (Commands.empty())
    Commands = clang::tooling::inferMissingCompileCommands(std::move(DB))
                   ->getCompileCommands(Abs);
  if (Commands.empty())
    return llvm::createStringError(
        "compile_commands.json in '%s' has no entry for '%s'",
        BuildDir.str().c_str(), File.str().c_str());
  addFromCommandLine(Commands.front().CommandLine, Commands.front().Directory);
  return llvm::Error::success();
}

} // namespace metacu
