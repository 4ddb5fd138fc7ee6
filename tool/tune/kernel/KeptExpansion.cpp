//===- KeptExpansion.cpp - A live run's expansion, kept between runs ------===//
#include "KeptExpansion.h"
#include "support/Output.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cstdlib>

using namespace metacu::tune;

// A kept expansion's file: this line, then per file read "HASH PATH", per
// watched file absent "- PATH" and per watched file there but not read
// "+ PATH", then "described N" and N bytes, then "text N" and N bytes.
static constexpr llvm::StringLiteral Header = "metacu kept expansion 1\n";

std::string metacu::tune::keptExpansionDir() {
  llvm::SmallString<256> Dir;
  if (const char *Cache = std::getenv("METACU_TUNE_CACHE"); Cache && *Cache) {
    Dir = Cache;
  } else {
    if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
      Dir = Xdg;
    else if (!llvm::sys::path::home_directory(Dir))
      return "";
    else
      llvm::sys::path::append(Dir, ".cache");
    llvm::sys::path::append(Dir, "metacu", "tune");
  }
  llvm::sys::path::append(Dir, "expansions");
  return Dir.str().str();
}

/// The hash of \p Path's content, or none where it cannot be read.
static std::optional<std::string> contentHash(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return llvm::utohexstr(
      llvm::xxh3_64bits(llvm::arrayRefFromStringRef((*Buf)->getBuffer())),
      /*LowerCase=*/true);
}

static std::string fileOf(llvm::StringRef Dir, llvm::StringRef Key) {
  return (Dir + "/" + Key + ".expansion").str();
}

/// Takes "WHAT N\n" and the N bytes after it off the front of \p Rest.
static std::optional<std::string> section(llvm::StringRef &Rest,
                                          llvm::StringRef What) {
  auto [Line, After] = Rest.split('\n');
  size_t N;
  if (!Line.consume_front(What) || !Line.consume_front(" ") ||
      Line.getAsInteger(10, N) || After.size() < N)
    return std::nullopt;
  Rest = After.drop_front(N);
  return After.take_front(N).str();
}

std::optional<KeptExpansion>
metacu::tune::findKeptExpansion(llvm::StringRef Dir, llvm::StringRef Key,
                                llvm::ArrayRef<std::string> Watched) {
  if (Dir.empty())
    return std::nullopt;
  auto Buf = llvm::MemoryBuffer::getFile(fileOf(Dir, Key), /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  llvm::StringRef Rest = (*Buf)->getBuffer();
  if (!Rest.consume_front(Header))
    return std::nullopt;
  KeptExpansion X;
  llvm::StringSet<> Seen;
  while (!Rest.starts_with("described ")) {
    auto [Line, After] = Rest.split('\n');
    auto [Hash, Path] = Line.split(' ');
    if (Path.empty() || After.empty())
      return std::nullopt;
    Seen.insert(Path);
    Rest = After;
    // A watched file made, or gone, since: expanded again.
    if (Hash == "-" || Hash == "+") {
      if (llvm::sys::fs::exists(Path) != (Hash == "+"))
        return std::nullopt;
      continue;
    }
    // A file changed (or gone) since: expanded again.
    if (contentHash(Path) != Hash.str())
      return std::nullopt;
    X.Dependencies.push_back(Path.str());
  }
  // One it did not watch may have been absent then and be read now.
  if (llvm::any_of(Watched,
                   [&](const std::string &W) { return !Seen.contains(W); }))
    return std::nullopt;
  auto Described = section(Rest, "described");
  auto Text = Described ? section(Rest, "text") : std::nullopt;
  if (!Text || !Rest.empty())
    return std::nullopt;
  X.Described = std::move(*Described);
  X.Text = std::move(*Text);
  return X;
}

void metacu::tune::keepExpansion(llvm::StringRef Dir, llvm::StringRef Key,
                                 const KeptExpansion &X,
                                 llvm::ArrayRef<std::string> Watched) {
  if (Dir.empty() || llvm::sys::fs::create_directories(Dir))
    return;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << Header;
  for (const std::string &Path : X.Dependencies) {
    std::optional<std::string> Hash = contentHash(Path);
    // A file it cannot hash again (or name on a line) would never match.
    if (!Hash || llvm::StringRef(Path).contains('\n'))
      return;
    OS << *Hash << ' ' << Path << '\n';
  }
  for (const std::string &Path : Watched) {
    if (llvm::StringRef(Path).contains('\n'))
      return;
    if (!llvm::is_contained(X.Dependencies, Path))
      OS << (llvm::sys::fs::exists(Path) ? "+ " : "- ") << Path << '\n';
  }
  OS << "described " << X.Described.size() << '\n' << X.Described;
  OS << "text " << X.Text.size() << '\n' << X.Text;
  // The project's one writer: a run that reads it meanwhile finds the old
  // one or the new, never a part; a failure to write is not the run's.
  llvm::consumeError(writeOutput(fileOf(Dir, Key), Out));
}
