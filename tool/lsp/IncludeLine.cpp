//===- IncludeLine.cpp ----------------------------------------------------===//
#include "lsp/IncludeLine.h"
#include "support/Tokens.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <functional>

namespace metacu {

namespace {

/// The #include lines of \p Text: the line (from 0), the name, whether
/// written <angled>.
struct Include {
  unsigned Line;
  std::string Name;
  bool Angled;
};

std::vector<Include> includesOf(llvm::StringRef Text) {
  std::vector<Include> Out;
  if (!Text.contains("include") && !Text.contains("import"))
    return Out;
  std::string Copy = Text.str(); // NUL-terminated, for the lexer
  std::vector<Token> Toks = lexRaw(Copy);
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    if (!Toks[I].is(clang::tok::hash) || !Toks[I].StartOfLine ||
        !(Toks[I + 1].isIdent("include") ||
          Toks[I + 1].isIdent("include_next") || Toks[I + 1].isIdent("import")))
      continue;
    llvm::StringRef Rest =
        llvm::StringRef(Copy)
            .substr(Toks[I + 1].end())
            .take_until([](char C) { return C == '\n' || C == '\r'; })
            .trim();
    bool Angled = Rest.starts_with("<");
    if (!Angled && !Rest.starts_with("\""))
      continue; // a macro names it: not a dialect header's way in
    llvm::StringRef Name = Rest.drop_front().split(Angled ? '>' : '"').first;
    unsigned Line =
        llvm::StringRef(Copy).take_front(Toks[I].Offset).count('\n');
    Out.push_back({Line, Name.str(), Angled});
  }
  return Out;
}

/// The directories the flags search, quoted names first.
struct SearchDirs {
  std::vector<std::string> Quoted, Angled;
  explicit SearchDirs(const CompileFlags &Flags) {
    for (llvm::StringRef A : Flags.Args) {
      if (A.consume_front("-iquote"))
        Quoted.push_back(A.str());
      else if (A.consume_front("-I") || A.consume_front("-isystem"))
        Angled.push_back(A.str());
    }
  }
};

} // namespace

std::optional<unsigned> includeLineOf(llvm::StringRef Path,
                                      llvm::StringRef Text,
                                      llvm::StringRef Header,
                                      const CompileFlags &Flags) {
  SearchDirs Dirs(Flags);
  llvm::StringSet<> Visited;
  auto Find = [&](llvm::StringRef Includer, const Include &I) {
    std::vector<std::string> Candidates;
    if (!I.Angled) {
      llvm::SmallString<256> Beside(llvm::sys::path::parent_path(Includer));
      llvm::sys::path::append(Beside, I.Name);
      Candidates.push_back(std::string(Beside));
      for (const std::string &D : Dirs.Quoted)
        Candidates.push_back(D + "/" + I.Name);
    }
    for (const std::string &D : Dirs.Angled)
      Candidates.push_back(D + "/" + I.Name);
    for (std::string &C : Candidates)
      if (llvm::sys::fs::is_regular_file(C))
        return std::optional<std::string>(std::move(C));
    return std::optional<std::string>();
  };
  // Whether #include \p I of \p Includer reads the header, directly or
  // through the headers it includes.
  std::function<bool(llvm::StringRef, const Include &, unsigned)> Leads =
      [&](llvm::StringRef Includer, const Include &I, unsigned Depth) {
        auto Found = Find(Includer, I);
        if (!Found)
          return false;
        if (llvm::sys::fs::equivalent(*Found, Header))
          return true;
        if (Depth == 16 || !Visited.insert(*Found).second)
          return false;
        auto Buffer = llvm::MemoryBuffer::getFile(*Found);
        if (!Buffer)
          return false;
        for (const Include &Next : includesOf((*Buffer)->getBuffer()))
          if (Leads(*Found, Next, Depth + 1))
            return true;
        return false;
      };
  for (const Include &I : includesOf(Text))
    if (Leads(Path, I, 0))
      return I.Line;
  return std::nullopt;
}

} // namespace metacu
