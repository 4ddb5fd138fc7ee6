//===- Audit.cpp ----------------------------------------------------------===//
#include "migrate/Audit.h"
#include "migrate/Classify.h"
#include "migrate/PreprocessorPass.h"
#include "support/Diagnostic.h"

#include "clang/Basic/FileManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <map>
#include <set>

namespace metacu {

namespace {

/// The pass whose parse would place the most branches that no parsed pass
/// compiles; none when every branch of every site is placed.
std::optional<unsigned> nextPassToParse(const Facts &F,
                                        const std::set<unsigned> &Parsed) {
  std::vector<unsigned> Gain(NumPasses, 0);
  for (auto &[K, G] : F.Groups) {
    if (!isSite(G))
      continue;
    std::set<int> Covered;
    for (unsigned P : Parsed)
      Covered.insert(G.Taken[P]);
    for (unsigned P = 0; P < NumPasses; ++P)
      if (G.Taken[P] >= 0 && !Covered.count(G.Taken[P]))
        ++Gain[P];
  }
  auto Best = std::max_element(Gain.begin(), Gain.end());
  if (*Best == 0)
    return std::nullopt;
  return Best - Gain.begin();
}

/// Preprocesses \p Path for every pass. Only the branch each pass takes is
/// needed from most passes, and preprocessing is several times cheaper
/// than a parse: the host pass is parsed (most conditionals live in code
/// it compiles), then only the passes that place branches no parse has.
llvm::Error runPasses(llvm::StringRef Path, const AuditOptions &Opts,
                      Facts &F) {
  auto Files =
      llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions());
  auto Run = [&](unsigned Pass, bool Parse) {
    return runPass(Path, Opts.Toolkit, Opts.Flags, Pass, Parse, F, *Files);
  };
  if (auto Err = Run(0, /*Parse=*/true))
    return Err;
  for (unsigned P = 1; P < NumPasses; ++P)
    if (auto Err = Run(P, /*Parse=*/false))
      return Err;
  std::set<unsigned> Parsed{0};
  while (std::optional<unsigned> P = nextPassToParse(F, Parsed)) {
    Parsed.insert(*P);
    if (auto Err = Run(*P, /*Parse=*/true))
      return Err;
  }
  return llvm::Error::success();
}

/// The site of the conditional at \p K, if it is one, classifying the
/// sites around it first: a conditional inside one that stays cannot move
/// (and a header's conditionals may sit inside the main file's).
const Site *classifyWithParents(const FileKey &K, const Facts &F,
                                std::map<FileKey, Site> &Sites) {
  if (auto Done = Sites.find(K); Done != Sites.end())
    return &Done->second;
  auto GI = F.Groups.find(K);
  if (GI == F.Groups.end() || !isSite(GI->second))
    return nullptr;
  const Group &G = GI->second;
  const Site *Parent = nullptr;
  for (std::optional<FileKey> P = G.Parent; P && !Parent;
       P = F.Groups.at(*P).Parent)
    Parent = classifyWithParents(*P, F, Sites);
  bool InMainFile = G.File == F.FileOrder.front();
  return &Sites.emplace(K, classifyConditional(G, F, InMainFile, Parent))
              .first->second;
}

/// The main file, then each header with sites, in the order the
/// preprocessor entered them; sites in file order.
std::vector<FileAudit> byFile(const Facts &F, std::map<FileKey, Site> Sites) {
  std::vector<FileAudit> Result;
  for (const std::string &Name : F.FileOrder) {
    FileAudit FA;
    FA.Path = Name;
    for (auto It = Sites.lower_bound({Name, 0});
         It != Sites.end() && It->first.first == Name; ++It)
      FA.Sites.push_back(std::move(It->second));
    if (Name == F.FileOrder.front() || !FA.Sites.empty())
      Result.push_back(std::move(FA));
  }
  return Result;
}

} // namespace

llvm::Expected<std::vector<FileAudit>> auditFile(llvm::StringRef Path,
                                                 const AuditOptions &Opts) {
  // Clang would say only that the file is missing, without where.
  if (auto Buf = llvm::MemoryBuffer::getFile(Path); !Buf)
    return llvm::make_error<SourceError>(Path.str(), LineCol{}, std::nullopt,
                                         "cannot read the file: " +
                                             Buf.getError().message());
  Facts F;
  if (auto Err = runPasses(Path, Opts, F))
    return std::move(Err);
  std::map<FileKey, Site> Sites;
  for (auto &[K, G] : F.Groups)
    classifyWithParents(K, F, Sites);
  for (auto &[K, O] : F.Others)
    Sites.emplace(K, classifyOther(K, O, F));
  return byFile(F, std::move(Sites));
}

} // namespace metacu
