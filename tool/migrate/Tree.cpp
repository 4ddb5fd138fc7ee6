//===- Tree.cpp -----------------------------------------------------------===//
#include "migrate/Tree.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
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

llvm::Expected<SourceTree>
SourceTree::collect(llvm::ArrayRef<std::string> Args) {
  SourceTree T;
  llvm::StringSet<> Unresolved;
  auto Add = [&](llvm::StringRef File) {
    std::optional<std::string> Real = realPath(File);
    if (Real ? T.ByRealPath.try_emplace(*Real, clean(File)).second
             // A dangling link stays, for its audit to report it.
             : Unresolved.insert(clean(File)).second)
      T.Files.push_back(clean(File));
  };
  for (const std::string &Arg : Args) {
    if (!fs::is_directory(Arg)) {
      // A file that cannot be read stays in the list: its audit reports it
      // at its path, and the others go on.
      if (!fs::exists(Arg))
        T.Files.push_back(clean(Arg));
      else
        Add(Arg);
      continue;
    }
    std::vector<std::string> Found;
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
      if (fs::is_directory(St)) {
        std::optional<std::string> Real = realPath(It->path());
        if (!Real || !Entered.insert(*Real).second)
          It.no_push();
        continue;
      }
      // A pipe or device named like a source is reported, not read: its
      // audit refuses what is no regular file.
      if (isSource(It->path()))
        Found.push_back(It->path());
    }
    if (EC)
      return llvm::make_error<SourceError>(Arg, LineCol{}, std::nullopt,
                                           "cannot list: " + EC.message());
    llvm::sort(Found);
    for (const std::string &F : Found)
      Add(F);
  }
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

TreeAudit
auditUnits(llvm::ArrayRef<std::string> Units, const AuditOneFn &AuditOne,
           unsigned Jobs,
           const std::function<std::string(llvm::StringRef)> &NameOf) {
  // Clang's invocations are independent: one thread per job takes the next
  // unit; results land by index, so the order is the order given.
  std::vector<std::optional<llvm::Expected<std::vector<FileAudit>>>> Results(
      Units.size());
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I; (I = Next++) < Units.size();)
      Results[I].emplace(AuditOne(Units[I]));
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < std::max(1u, Jobs) && J < Units.size(); ++J)
    Threads.emplace_back(Work);
  Work();
  for (std::thread &T : Threads)
    T.join();
  TreeAudit Out;
  std::vector<std::pair<std::string, std::vector<FileAudit>>> Audits;
  for (size_t I = 0; I < Units.size(); ++I) {
    if (!*Results[I]) {
      Out.Errors.push_back(Results[I]->takeError());
      continue;
    }
    Audits.emplace_back(Units[I], std::move(**Results[I]));
  }
  Out.Files = mergeAudits(Audits, NameOf, &Out.Reached);
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
