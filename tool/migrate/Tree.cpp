//===- Tree.cpp -----------------------------------------------------------===//
#include "migrate/Tree.h"
#include "support/Diagnostic.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace metacu {

static bool isSource(llvm::StringRef Name) {
  for (llvm::StringRef Ext : {".cu", ".cuh", ".h", ".hpp", ".hh", ".inl"})
    if (Name.ends_with(Ext))
      return true;
  return false;
}

/// Whether \p Path, a regular file with no extension, is a header in the
/// standard library's style (Eigen's `Eigen/Core`, libcu++'s
/// `cuda/std/atomic`): its first token, comments skipped, starts a
/// preprocessor directive that a header opens with. A README, a license or
/// a Makefile (whose `# text` names no directive) is not one.
static bool isExtensionlessHeader(llvm::StringRef Path) {
  if (path::has_extension(path::filename(Path)))
    return false;
  // The opening is enough: a header's first directive comes after at most
  // a license comment.
  uint64_t Size;
  if (fs::file_size(Path, Size) || Size == 0)
    return false;
  auto Buf = llvm::MemoryBuffer::getFileSlice(
      Path, std::min<uint64_t>(Size, 64 * 1024), 0);
  if (!Buf)
    return false;
  llvm::StringRef Text = (*Buf)->getBuffer();
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  clang::Lexer L(clang::SourceLocation::getFromRawEncoding(1), LO,
                 Text.data(), Text.data(), Text.data() + Text.size());
  clang::Token Hash, Name;
  L.LexFromRawLexer(Hash);
  if (Hash.isNot(clang::tok::hash) || !Hash.isAtStartOfLine())
    return false;
  L.LexFromRawLexer(Name);
  if (Name.isNot(clang::tok::raw_identifier) || Name.isAtStartOfLine())
    return false;
  llvm::StringRef Directive = Name.getRawIdentifier();
  return llvm::is_contained({"if", "ifdef", "ifndef", "define", "include",
                             "pragma"},
                            Directive);
}

static bool isHostSource(llvm::StringRef Name) {
  for (llvm::StringRef Ext : {".cc", ".cpp", ".cxx"})
    if (Name.ends_with(Ext))
      return true;
  return false;
}

static std::string clean(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

static std::optional<std::string> realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (fs::real_path(Path, Real))
    return std::nullopt;
  return std::string(Real);
}

static bool isLink(llvm::StringRef Path) {
  fs::file_status St;
  return !fs::status(Path, St, /*follow=*/false) &&
         St.type() == fs::file_type::symlink_file;
}

/// Whether real path \p Real is \p Dir or below it.
static bool isWithin(llvm::StringRef Real, llvm::StringRef Dir) {
  return Real == Dir || Real.starts_with((Dir + "/").str());
}

llvm::Expected<SourceTree>
SourceTree::collect(llvm::ArrayRef<std::string> Args) {
  SourceTree T;
  // The tree is what the user named: a link under a directory named that
  // leads elsewhere is reported, not walked.
  for (const std::string &Arg : Args)
    if (fs::is_directory(Arg))
      if (std::optional<std::string> Real = realPath(Arg))
        T.Roots.push_back(*Real);
  auto Inside = [&](llvm::StringRef Real) {
    return llvm::any_of(
        T.Roots, [&](const std::string &R) { return isWithin(Real, R); });
  };
  llvm::StringSet<> Unresolved;
  auto Add = [&](llvm::StringRef File) {
    std::optional<std::string> Real = realPath(File);
    if (!Real) {
      // A dangling link stays, for its audit to report it.
      if (Unresolved.insert(clean(File)).second)
        T.Files.push_back(clean(File));
      return;
    }
    auto [It, New] = T.ByRealPath.try_emplace(*Real, clean(File));
    if (New) {
      T.Files.push_back(clean(File));
      return;
    }
    // A file found under several names goes by the one that is no link to
    // it: what a report names is the file itself.
    if (!isLink(It->second) || isLink(File))
      return;
    *llvm::find(T.Files, It->second) = clean(File);
    It->second = clean(File);
  };
  for (const std::string &Arg : Args) {
    if (!fs::is_directory(Arg)) {
      T.Named.insert(realPath(Arg).value_or(clean(Arg)));
      // A file that cannot be read stays in the list: its audit reports it
      // at its path, and the others go on.
      if (!fs::exists(Arg))
        T.Files.push_back(clean(Arg));
      else
        Add(Arg);
      continue;
    }
    std::vector<std::string> Found, HostFound;
    std::error_code EC;
    // Links are followed, but a directory is entered once: real trees link
    // back to their own ancestors (a 'build/src -> ..' link).
    std::set<std::string> Entered;
    if (std::optional<std::string> Real = realPath(Arg))
      Entered.insert(*Real);
    for (fs::recursive_directory_iterator It(Arg, EC), End; It != End && !EC;
         It.increment(EC)) {
      fs::file_status St;
      if (fs::status(It->path(), St)) {
        if (isSource(It->path()))
          Found.push_back(It->path());
        continue;
      }
      std::optional<std::string> Real = realPath(It->path());
      if (Real && !Inside(*Real)) {
        if (fs::is_directory(St) || isSource(It->path()))
          T.Outside.push_back({clean(It->path()), *Real});
        if (fs::is_directory(St))
          It.no_push();
        continue;
      }
      if (fs::is_directory(St)) {
        if (!Real || !Entered.insert(*Real).second)
          It.no_push();
        continue;
      }
      // A pipe or device named like a source is reported, not read: its
      // audit refuses what is no regular file.
      if (isSource(It->path()) ||
          (fs::is_regular_file(St) && isExtensionlessHeader(It->path())))
        Found.push_back(It->path());
      else if (isHostSource(It->path()) && fs::is_regular_file(St))
        HostFound.push_back(It->path());
    }
    if (EC)
      return llvm::make_error<SourceError>(Arg, LineCol{}, std::nullopt,
                                           "cannot list: " + EC.message());
    llvm::sort(Found);
    for (const std::string &F : Found)
      Add(F);
    llvm::sort(HostFound);
    for (const std::string &F : HostFound)
      T.HostSources.push_back(clean(F));
  }
  llvm::sort(T.Outside,
             [](const Link &A, const Link &B) { return A.Path < B.Path; });
  // The common directory of the real paths: -o DIR mirrors the tree below.
  for (const auto &E : T.ByRealPath) {
    llvm::StringRef Dir = path::parent_path(E.getKey());
    if (T.Root.empty()) {
      T.Root = Dir.str();
      continue;
    }
    while (!T.Root.empty() &&
           !llvm::StringRef(Dir.str() + "/").starts_with(T.Root + "/"))
      T.Root = path::parent_path(T.Root).str();
  }
  return T;
}

std::optional<std::string> SourceTree::rootHolding(llvm::StringRef Dir) const {
  // Dir need not exist yet: its nearest existing ancestor says where it
  // would be.
  llvm::SmallString<256> Abs(Dir);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Rest;
  llvm::StringRef Existing = Abs;
  std::optional<std::string> Real;
  while (!(Real = realPath(Existing)) && !Existing.empty()) {
    llvm::SmallString<256> Joined(path::filename(Existing));
    path::append(Joined, Rest);
    Rest = Joined;
    Existing = path::parent_path(Existing);
  }
  if (!Real)
    return std::nullopt;
  llvm::SmallString<256> Where(*Real);
  path::append(Where, Rest);
  for (const std::string &Root : Roots)
    if (isWithin(Where, Root))
      return Root;
  return std::nullopt;
}

bool SourceTree::isNamed(llvm::StringRef File) const {
  return Named.count(realPath(File).value_or(clean(File))) != 0;
}

std::vector<std::string> SourceTree::units() const {
  std::vector<std::string> U;
  for (const std::string &F : Files)
    if (llvm::StringRef(F).ends_with(".cu"))
      U.push_back(F);
  return U;
}

bool SourceTree::contains(llvm::StringRef Path) const {
  std::optional<std::string> Real = realPath(Path);
  return Real && ByRealPath.count(*Real);
}

std::string SourceTree::nameOf(llvm::StringRef Path) const {
  if (std::optional<std::string> Real = realPath(Path))
    if (auto It = ByRealPath.find(*Real); It != ByRealPath.end())
      return It->second;
  return clean(Path);
}

std::string SourceTree::relative(llvm::StringRef Path) const {
  std::optional<std::string> Real = realPath(Path);
  llvm::StringRef R = Real ? llvm::StringRef(*Real) : Path;
  if (!Root.empty() && R.starts_with(Root + "/"))
    return R.drop_front(Root.size() + 1).str();
  return path::filename(Path).str();
}

using AuditResults = std::vector<llvm::Expected<std::vector<FileAudit>>>;

/// \p AuditOne of each of \p Files on \p Jobs threads, in the order given.
static AuditResults auditEach(llvm::ArrayRef<std::string> Files,
                              const AuditOneFn &AuditOne, unsigned Jobs) {
  // Clang's invocations are independent: one thread per job takes the next
  // file; results land by index, so the order is the order given.
  std::vector<std::optional<llvm::Expected<std::vector<FileAudit>>>> Results(
      Files.size());
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I; (I = Next++) < Files.size();)
      Results[I].emplace(AuditOne(Files[I]));
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < std::max(1u, Jobs) && J < Files.size(); ++J)
    Threads.emplace_back(Work);
  Work();
  for (std::thread &T : Threads)
    T.join();
  AuditResults Out;
  for (auto &R : Results)
    Out.push_back(std::move(*R));
  return Out;
}

/// Merges the audits of \p Files (\p Results, in the same order) into
/// \p Out. The sites of a file where the preprocessor stopped are left out
/// even where another file reached it: the error means its text is not
/// what the compiler would read.
static void
mergeResults(llvm::ArrayRef<std::string> Files, AuditResults &Results,
             const std::function<std::string(llvm::StringRef)> &NameOf,
             TreeAudit &Out) {
  std::set<std::string> Stopped;
  std::vector<std::pair<std::string, std::vector<FileAudit>>> Audits;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Results[I]) {
      Audits.emplace_back(Files[I], std::move(*Results[I]));
      continue;
    }
    Out.Failed.insert(NameOf(Files[I]));
    Out.Errors.push_back(
        llvm::handleErrors(Results[I].takeError(),
                           [&](std::unique_ptr<SourceError> E) -> llvm::Error {
                             Stopped.insert(NameOf(E->path()));
                             return llvm::Error(std::move(E));
                           }));
  }
  Out.Files = mergeAudits(Audits, NameOf, &Out.Reached);
  llvm::erase_if(Out.Files, [&](const FileAudit &FA) {
    return Stopped.count(FA.Path) != 0;
  });
}

TreeAudit
auditUnits(llvm::ArrayRef<std::string> Units, const AuditOneFn &AuditOne,
           unsigned Jobs,
           const std::function<std::string(llvm::StringRef)> &NameOf) {
  AuditResults Results = auditEach(Units, AuditOne, Jobs);
  TreeAudit Out;
  mergeResults(Units, Results, NameOf, Out);
  return Out;
}

/// The names of the files \p Audit reached besides its first, its own.
static std::set<std::string>
reachedBy(const std::vector<FileAudit> &Audit,
          const std::function<std::string(llvm::StringRef)> &NameOf) {
  std::set<std::string> Names;
  for (size_t I = 1; I < Audit.size(); ++I)
    Names.insert(NameOf(Audit[I].Path));
  return Names;
}

TreeAudit auditTree(const SourceTree &Tree, const AuditOneFn &AuditOne,
                    unsigned Jobs) {
  auto NameOf = [&](llvm::StringRef P) { return Tree.nameOf(P); };
  std::vector<std::string> Files = Tree.units();
  const bool HeaderOnly = Files.empty();
  AuditResults Results = auditEach(Files, AuditOne, Jobs);
  std::set<std::string> Reached;
  for (auto &R : Results)
    if (R)
      for (const FileAudit &FA : *R)
        Reached.insert(NameOf(FA.Path));
  // The headers read alone, as nvcc reads a header given with -x cu: in a
  // tree without .cu files (a header-only library) every header, else the
  // ones named that no .cu file reaches. Shallow ones first, one depth at a
  // time: a library's top headers reach its details, which are then read
  // through them, with the macros they see there.
  std::map<size_t, std::vector<std::string>> ByDepth;
  for (const std::string &F : Tree.files()) {
    if (llvm::StringRef(F).ends_with(".cu") || Reached.count(F) ||
        !(HeaderOnly || Tree.isNamed(F)))
      continue;
    std::string Rel = Tree.relative(F);
    ByDepth[std::distance(path::begin(Rel), path::end(Rel))].push_back(F);
  }
  for (auto &[Depth, Candidates] : ByDepth) {
    std::vector<std::string> Headers;
    for (const std::string &H : Candidates)
      if (!Reached.count(H))
        Headers.push_back(H);
    AuditResults HeaderResults = auditEach(Headers, AuditOne, Jobs);
    std::vector<std::set<std::string>> Reaches;
    for (auto &R : HeaderResults)
      Reaches.push_back(R ? reachedBy(*R, NameOf) : std::set<std::string>());
    // One that a header of the same depth includes is read through it;
    // headers that include each other are each read alone.
    auto ReadThroughAnother = [&](size_t I) {
      for (size_t J = 0; J < Headers.size(); ++J)
        if (J != I && Reaches[J].count(Headers[I]) &&
            !Reaches[I].count(Headers[J]))
          return true;
      return false;
    };
    for (size_t I = 0; I < Headers.size(); ++I) {
      if (ReadThroughAnother(I)) {
        if (!HeaderResults[I])
          llvm::consumeError(HeaderResults[I].takeError());
        continue;
      }
      Reached.insert(Reaches[I].begin(), Reaches[I].end());
      Files.push_back(Headers[I]);
      Results.push_back(std::move(HeaderResults[I]));
    }
  }
  TreeAudit Out;
  mergeResults(Files, Results, NameOf, Out);
  return Out;
}

/// The 'if codegen' chain of a site: what two units must agree on.
static std::string verdictOf(const Site &S) {
  std::string V = categoryName(S.Category).str();
  for (const SiteDirective &D : S.Directives)
    V += "|" + D.Codegen;
  return V;
}

std::vector<FileAudit> mergeAudits(
    llvm::ArrayRef<std::pair<std::string, std::vector<FileAudit>>> UnitAudits,
    const std::function<std::string(llvm::StringRef)> &NameOf,
    std::set<std::string> *Reached) {
  std::vector<FileAudit> Files;
  std::map<std::string, size_t> FileIndex;
  // Per file and offset: the site and the unit that classified it.
  std::map<std::pair<size_t, unsigned>, std::pair<size_t, std::string>> Seen;
  for (const auto &[Unit, Audit] : UnitAudits) {
    for (const FileAudit &FA : Audit) {
      std::string Name = NameOf(FA.Path);
      if (Reached)
        Reached->insert(Name);
      if (FA.Sites.empty() && &FA != &Audit.front())
        continue;
      auto [It, New] = FileIndex.try_emplace(Name, Files.size());
      if (New)
        Files.push_back({Name, {}});
      FileAudit &Into = Files[It->second];
      for (const Site &S : FA.Sites) {
        auto [SIt, First] =
            Seen.try_emplace({It->second, S.Offset}, Into.Sites.size(), Unit);
        if (First) {
          Into.Sites.push_back(S);
          continue;
        }
        Site &Kept = Into.Sites[SIt->second.first];
        // The branches every unit's passes compile (--assume-arch keeps a
        // branch only where all of them agree).
        Kept.Reached |= S.Reached;
        if (Kept.Directives.size() == S.Directives.size())
          for (size_t I = 0; I < S.Directives.size(); ++I)
            Kept.Directives[I].TakenBy |= S.Directives[I].TakenBy;
        if (verdictOf(Kept) == verdictOf(S) ||
            (!isConvertible(Kept.Category) && !isConvertible(S.Category)))
          continue;
        Kept.Reason = "the files that include it see it differently: " +
                      categoryName(Kept.Category).str() + " in " +
                      SIt->second.second + " (" + Kept.Reason + "), " +
                      categoryName(S.Category).str() + " in " + Unit + " (" +
                      S.Reason + ")";
        Kept.Category = SiteCategory::NotConvertible;
        for (SiteDirective &D : Kept.Directives)
          D.Codegen.clear();
      }
    }
  }
  for (FileAudit &FA : Files)
    llvm::sort(FA.Sites, [](const Site &A, const Site &B) {
      return A.Offset < B.Offset;
    });
  return Files;
}

} // namespace metacu
