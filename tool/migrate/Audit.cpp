//===- Audit.cpp ----------------------------------------------------------===//
#include "migrate/Audit.h"
#include "migrate/ArchFlow.h"
#include "migrate/Classify.h"
#include "migrate/InheritedPlacement.h"
#include "migrate/PreprocessorPass.h"
#include "support/Diagnostic.h"
#include "support/SourceFile.h"
#include "toolchain/SharedContents.h"

#include "clang/Basic/FileManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <set>

namespace metacu {

namespace {

using InTreeFn = std::function<bool(llvm::StringRef)>;

/// The pass whose parse would place the most branches that no parsed pass
/// compiles; none when every branch of every site is placed. Of a site
/// migrate may not rewrite (\p Rewritable says which files it may), the
/// parse of one pass that reaches its #if is enough: only whether it sits
/// in a host-only function body decides its category (Classify.h), not
/// the way each branch's code parses, and a parse of a whole library's
/// headers per branch set was most of an audit's time (CUTLASS: 9 parses
/// of a unit, 20 s of 24; asking for a pass that takes a branch of each
/// such site, the unit cost as much as before). A site placed from the
/// conditional around it (InheritedPlacement.h) needs none.
std::optional<unsigned> nextPassToParse(const Facts &F,
                                        const std::set<unsigned> &Parsed,
                                        const InTreeFn &Rewritable) {
  std::vector<unsigned> Gain(NumPasses, 0);
  for (auto &[K, G] : F.Groups) {
    if (!isSite(G) || G.Cached || G.Inherited)
      continue;
    std::set<int> Covered;
    for (unsigned P : Parsed)
      Covered.insert(G.Taken[P]);
    if (!Rewritable(G.File)) {
      if (llvm::any_of(Covered, [](int T) { return T != Unreached; }))
        continue;
      for (unsigned P = 0; P < NumPasses; ++P)
        if (G.Taken[P] >= 0)
          ++Gain[P];
      continue;
    }
    for (unsigned P = 0; P < NumPasses; ++P)
      if (G.Taken[P] >= 0 && !Covered.count(G.Taken[P]))
        ++Gain[P];
  }
  auto Best = std::max_element(Gain.begin(), Gain.end());
  if (*Best == 0)
    return std::nullopt;
  return Best - Gain.begin();
}

std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

/// Preprocesses \p Path for every pass: only the branch each pass takes is
/// needed from most passes, and preprocessing is several times cheaper
/// than a parse. Then parses the passes that place branches nothing placed
/// yet: none when the file has no sites, or when every site sits in a
/// header another unit's parse placed with the same branches per pass.
llvm::Error runPasses(llvm::StringRef Path, const AuditOptions &Opts,
                      const InTreeFn &Rewritable, Facts &F) {
  // The files of the tree are read afresh: migrate rewrites them.
  std::string RealMain = realPathOf(Path);
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(),
      sharedContentsFileSystem(SharedContents::shared(),
                               [&](llvm::StringRef File) {
                                 return !(Opts.InTree && Opts.InTree(File)) &&
                                        realPathOf(File) != RealMain;
                               }));
  PassSources Sources(*Files);
  auto Run = [&](unsigned Pass, bool Parse, ArchRecord *Record = nullptr) {
    return runPass(Path, Opts.Toolkit, Opts.Flags, Pass, Parse, F, Sources,
                   Opts.CacheDir, Record);
  };
  // A device pass that preprocesses as one run before is not run again
  // (ArchFlow.h).
  std::vector<ArchRecord> Records;
  for (unsigned P = 0; P < NumPasses; ++P) {
    auto Like = llvm::find_if(llvm::reverse(Records), [&](const ArchRecord &R) {
      return R.Alike >> P & 1;
    });
    if (Like != Records.rend() && stillAlike(*Like, F)) {
      copyPass(F, Like->Pass, P);
      continue;
    }
    ArchRecord Record;
    if (auto Err = Run(P, /*Parse=*/false, &Record))
      return Err;
    if (!auditPasses()[P])
      continue;
    uint64_t Later = AllPasses & ~((uint64_t(2) << P) - 1);
    // Run again for what it read of the facts, it is alike the same passes.
    Record.Alike = Like != Records.rend() ? Like->Alike & Later
                                          : passesAlike(Record, Later);
    Record.Conditions.clear();
    Records.push_back(std::move(Record));
  }
  const std::string &Main = F.FileOrder.front();
  std::map<std::string, std::string> Real;
  auto RealOf = [&](const std::string &File) -> const std::string & {
    auto [It, New] = Real.try_emplace(File);
    if (New)
      It->second = realPathOf(File);
    return It->second;
  };
  if (Opts.Placements)
    for (auto &[K, G] : F.Groups)
      if (G.File != Main && isSite(G))
        G.Cached = Opts.Placements->lookup(RealOf(G.File), G);
  std::map<std::string, bool, std::less<>> RewritableFiles;
  InTreeFn RewritableFile = [&](llvm::StringRef File) {
    auto It = RewritableFiles.find(File);
    if (It == RewritableFiles.end())
      It = RewritableFiles.emplace(File.str(), Rewritable(File)).first;
    return It->second;
  };
  std::set<unsigned> Parsed;
  uint64_t ParsedMask = 0;
  for (;;) {
    inheritPlacements(F, ParsedMask, RewritableFile);
    std::optional<unsigned> P = nextPassToParse(F, Parsed, RewritableFile);
    if (!P)
      break;
    Parsed.insert(*P);
    ParsedMask |= uint64_t(1) << *P;
    if (Opts.OnParse)
      Opts.OnParse(*P);
    if (auto Err = Run(*P, /*Parse=*/true))
      return Err;
  }
  if (Opts.Placements && !Parsed.empty())
    for (auto &[K, G] : F.Groups)
      if (G.File != Main && isSite(G) && !G.Cached)
        Opts.Placements->store(RealOf(G.File), G);
  F.makeLineTables();
  F.DefinedUnderArch = definedUnderArch(F);
  return llvm::Error::success();
}

/// Why the sites of a file migrate may not rewrite stay.
using OutsideFn = std::function<std::string(llvm::StringRef)>;

const Site *classifyWithParents(const FileKey &K, const Facts &F,
                                LexedFiles &Files,
                                std::map<FileKey, Site> &Sites,
                                const InTreeFn &Tree,
                                const OutsideFn &Outside) {
  if (auto Done = Sites.find(K); Done != Sites.end())
    return &Done->second;
  auto GI = F.Groups.find(K);
  if (GI == F.Groups.end() || !isSite(GI->second))
    return nullptr;
  const Group &G = GI->second;
  const Site *Parent = nullptr;
  for (std::optional<FileKey> P = G.Parent; P && !Parent;
       P = F.Groups.at(*P).Parent)
    Parent = classifyWithParents(*P, F, Files, Sites, Tree, Outside);
  return &Sites
              .emplace(K, classifyConditional(G, F, Files, Tree(G.File), Parent,
                                              Outside(G.File)))
              .first->second;
}

/// Why the value use \p O stays, if it does: metacu must see the
/// __nvvm_arch that replaces it, so every conditional around it is either
/// converted or compiles the same branch in every pass.
std::optional<std::string>
whyValueStays(const OtherSite &O, llvm::StringRef File, const InTreeFn &Tree,
              const OutsideFn &Outside, const Facts &F, LexedFiles &Files,
              std::map<FileKey, Site> &Sites) {
  if (!Tree(File))
    return Outside(File);
  for (std::optional<FileKey> P = O.Parent; P; P = F.Groups.at(*P).Parent) {
    const Site *S = classifyWithParents(*P, F, Files, Sites, Tree, Outside);
    if (S && !isConvertible(S->Category) &&
        S->Category != SiteCategory::Constant)
      return "inside the conditional at line " + std::to_string(S->Line) +
             ", which stays: metacu would not see the __nvvm_arch that "
             "replaces it";
  }
  return std::nullopt;
}

/// The main file, then each header with sites, in the order the
/// preprocessor entered them; sites in file order.
std::vector<FileAudit> byFile(const Facts &F, std::map<FileKey, Site> Sites) {
  std::vector<FileAudit> Result;
  for (const std::string &Name : F.FileOrder) {
    FileAudit FA;
    llvm::SmallString<256> Clean(Name);
    llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
    FA.Path = std::string(Clean);
    for (auto It = Sites.lower_bound({Name, 0});
         It != Sites.end() && It->first.first == Name; ++It)
      FA.Sites.push_back(std::move(It->second));
    Result.push_back(std::move(FA));
  }
  return Result;
}

} // namespace

llvm::Expected<std::vector<FileAudit>> auditFile(llvm::StringRef Path,
                                                 const AuditOptions &Opts) {
  if (isSpecialFile(Path))
    return llvm::make_error<SourceError>(Path.str(), LineCol{}, std::nullopt,
                                         "cannot read the file: not a "
                                         "regular file");
  // Clang would say only that the file is missing, without where.
  if (auto Buf = llvm::MemoryBuffer::getFile(Path); !Buf)
    return llvm::make_error<SourceError>(Path.str(), LineCol{}, std::nullopt,
                                         "cannot read the file: " +
                                             Buf.getError().message());
  Facts F;
  auto HostIncluder = [&](llvm::StringRef File) {
    return Opts.HostIncluder ? Opts.HostIncluder(File) : std::nullopt;
  };
  // The main file is the first the passes entered.
  InTreeFn Tree = [&](llvm::StringRef File) {
    return File == F.FileOrder.front() || (Opts.InTree && Opts.InTree(File));
  };
  if (auto Err = runPasses(Path, Opts, Tree, F))
    return std::move(Err);
  // A conditional of a header C++ sources include is rewritten for nvcc
  // only; a value use is inside code both compilers read.
  OutsideFn Outside = [&](llvm::StringRef File) -> std::string {
    if (std::optional<std::string> By = HostIncluder(File))
      return "included by C++ source '" + *By +
             "', which the host compiler builds without metacu: "
             "__nvvm_arch would not compile there";
    return OutsideTree;
  };
  std::map<FileKey, Site> Sites;
  LexedFiles Files(F);
  for (auto &[K, G] : F.Groups)
    classifyWithParents(K, F, Files, Sites, Tree, Outside);
  // Macros whose every definition of the tree, and none outside it,
  // takes the value form: a use may reach any of them.
  llvm::StringSet<> ValueMacros, Staying;
  for (auto &[K, O] : F.Others)
    if (O.Kind == SiteKind::MacroAlias)
      (Tree(K.first) && !HostIncluder(K.first) && takesValueForm(O, F)
           ? ValueMacros
           : Staying)
          .insert(O.Name);
  for (const auto &Name : Staying)
    ValueMacros.erase(Name.getKey());
  // Aliases whose every definition migrate may read as settled: the
  // tree's (a header outside it keeps its conditionals).
  llvm::StringSet<> TreeAliases, OutsideAliases;
  for (auto &[K, O] : F.Others)
    if (O.Kind == SiteKind::MacroAlias)
      (Tree(K.first) ? TreeAliases : OutsideAliases).insert(O.Name);
  for (const auto &Name : OutsideAliases)
    TreeAliases.erase(Name.getKey());
  llvm::StringSet<> Settled =
      settledMacros(F, Files, Sites, ValueMacros, TreeAliases);
  for (auto &[K, O] : F.Others) {
    std::optional<std::string> Stays;
    if (O.Kind == SiteKind::ValueUse && O.Direct)
      Stays = HostIncluder(K.first)
                  ? Outside(K.first)
                  : whyValueStays(O, K.first, Tree, Outside, F, Files, Sites);
    Site S = classifyOther(K, O, F, std::move(Stays));
    bool Through = O.Kind == SiteKind::ValueUse && !O.Direct &&
                   ValueMacros.contains(O.Via);
    if (Through ||
        (O.Kind == SiteKind::MacroAlias && ValueMacros.contains(O.Name)))
      convertThroughMacro(S, O);
    else
      followSettledMacros(S, O, Settled);
    Sites.emplace(K, std::move(S));
  }
  for (auto &[K, S] : Sites)
    if (std::optional<std::string> By = HostIncluder(K.first))
      S.HostIncluder = *By;
  return byFile(F, std::move(Sites));
}

} // namespace metacu
