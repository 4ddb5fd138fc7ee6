//===- SystemHeaderDirectives.cpp -----------------------------------------===//
#include "migrate/SystemHeaderDirectives.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace metacu {

namespace {

/// The identifiers of \p Text outside its directives, #pragma lines
/// included.
llvm::StringSet<> codeNames(llvm::StringRef Text) {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.LineComment = true;
  LO.RawStringLiterals = true;
  Lexer Lx(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  llvm::StringSet<> Names;
  clang::Token T;
  bool InDirective = false, AfterHash = false;
  for (Lx.LexFromRawLexer(T); T.isNot(tok::eof); Lx.LexFromRawLexer(T)) {
    if (T.isAtStartOfLine()) {
      InDirective = AfterHash = T.is(tok::hash);
      if (InDirective)
        continue;
    } else if (AfterHash) {
      AfterHash = false;
      InDirective =
          !(T.is(tok::raw_identifier) && T.getRawIdentifier() == "pragma");
      continue;
    }
    if (!InDirective && T.is(tok::raw_identifier))
      Names.insert(T.getRawIdentifier());
  }
  return Names;
}

class DefinitionWatcher : public PPCallbacks {
public:
  DefinitionWatcher(SystemHeaderReplay::Definitions &Defs,
                    const Preprocessor &PP)
      : Defs(Defs), PP(PP), Pragma(PP.getIdentifierInfo("_Pragma")) {}

  void MacroDefined(const clang::Token &Name,
                    const MacroDirective *MD) override {
    const IdentifierInfo *Macro = Name.getIdentifierInfo();
    const MacroInfo &MI = *MD->getMacroInfo();
    Defs.Changed.insert(Macro);
    Defs.Forwarders.define(Macro, MI, Pragma);
    llvm::ArrayRef<clang::Token> Body = MI.tokens();
    for (size_t I = 0; I < Body.size(); ++I) {
      const IdentifierInfo *II = Body[I].getIdentifierInfo();
      if (!II)
        continue;
      if (II == Pragma || Defs.Forwarders.forwards(II)) {
        SystemHeaderReplay::Definitions::PragmaUse Use{
            II == Pragma ? nullptr : II, Macro, {}, std::nullopt};
        if (std::optional<std::string> Text =
                Defs.Forwarders.pragmaText(Body, I, MI, PP, Use.Spelled)) {
          bool Quiet =
              isQuietPragma(*Text, *PP.getDiagnostics().getDiagnosticIDs());
          if (!Quiet)
            Use.Saved = pushedOrPoppedMacro(*Text);
          Use.Silences = !Quiet && !Use.Saved && onlySilences(*Text);
          if (Quiet || Use.Saved || Use.Silences) {
            Defs.PragmaUses.push_back(std::move(Use));
            continue;
          }
        }
      }
      Defs.UsedBy[II].push_back(Macro);
    }
  }

  /// An #undef of a name that is no macro changes nothing (libstdc++'s
  /// c++config.h undefines min and max, which CCCL pushes and pops).
  void MacroUndefined(const clang::Token &Name, const MacroDefinition &MD,
                      const MacroDirective *) override {
    if (MD)
      Defs.Changed.insert(Name.getIdentifierInfo());
  }

private:
  SystemHeaderReplay::Definitions &Defs;
  const Preprocessor &PP;
  const IdentifierInfo *Pragma;
};

} // namespace

const SystemHeaderScans::Scan *SystemHeaderScans::scan(FileEntryRef File,
                                                       llvm::StringRef Text) {
  Key K{File.getUniqueID(), uint64_t(File.getSize()),
        int64_t(File.getModificationTime())};
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (InFull.count(K))
      return nullptr;
    if (auto It = Scans.find(K); It != Scans.end())
      return It->second.get();
  }
  // Scanned outside the lock: two threads may scan one header, and the
  // first scan stays.
  auto S = std::make_unique<Scan>();
  S->Key = K;
  bool Failed =
      scanSourceForDependencyDirectives(Text, S->Tokens, S->Directives);
  if (!Failed)
    S->CodeNames = codeNames(Text);
  std::lock_guard<std::mutex> Guard(Lock);
  auto &Slot = Scans[K];
  if (!Slot && !Failed)
    Slot = std::move(S);
  return Slot.get();
}

void SystemHeaderScans::lexInFull(const Scan &S) {
  std::lock_guard<std::mutex> Guard(Lock);
  InFull.insert(S.Key);
}

SystemHeaderScans &SystemHeaderScans::shared() {
  static SystemHeaderScans Scans;
  return Scans;
}

std::optional<llvm::ArrayRef<dependency_directives_scan::Directive>>
SystemHeaderReplay::operator()(FileEntryRef File) {
  // The preprocessor asks right after it made the file's FileID: the
  // newest entry for the file tells how the include found it.
  for (unsigned I = SM.local_sloc_entry_size(); I-- > 0;) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::FileInfo &FI = E.getFile();
    OptionalFileEntryRef Entry = FI.getContentCache().OrigEntry;
    if (!Entry || Entry->getUniqueID() != File.getUniqueID())
      return std::nullopt;
    if (FI.getFileCharacteristic() == SrcMgr::C_User)
      return std::nullopt;
    std::optional<llvm::MemoryBufferRef> Buf =
        FI.getContentCache().getBufferIfLoaded();
    if (!Buf)
      return std::nullopt;
    const SystemHeaderScans::Scan *S = Scans.scan(File, Buf->getBuffer());
    if (!S)
      return std::nullopt;
    Replayed.insert(S);
    return llvm::ArrayRef(S->Directives);
  }
  return std::nullopt;
}

std::unique_ptr<DependencyDirectivesGetter>
SystemHeaderReplay::cloneFor(FileManager &) {
  struct LexEverything : DependencyDirectivesGetter {
    std::unique_ptr<DependencyDirectivesGetter>
    cloneFor(FileManager &) override {
      return std::make_unique<LexEverything>();
    }
    std::optional<llvm::ArrayRef<dependency_directives_scan::Directive>>
    operator()(FileEntryRef) override {
      return std::nullopt;
    }
  };
  return std::make_unique<LexEverything>();
}

std::unique_ptr<PPCallbacks>
SystemHeaderReplay::definitionWatcher(const Preprocessor &PP) {
  return std::make_unique<DefinitionWatcher>(Defs, PP);
}

bool SystemHeaderReplay::mayHaveLostPragma(Preprocessor &PP) {
  // The macros that some definition of the pass lets reach a _Pragma
  // operator that is not quiet (QuietPragmas.h) through the names in their
  // bodies, the operators included.
  const IdentifierInfo *Pragma = PP.getIdentifierInfo("_Pragma");
  std::vector<const IdentifierInfo *> Reaching = {
      Pragma, PP.getIdentifierInfo("__pragma")};
  auto &UsedBy = Defs.UsedBy;
  // A use of a pragma read as quiet whose reading no longer holds reaches
  // it after all.
  for (const Definitions::PragmaUse &U : Defs.PragmaUses) {
    bool Holds =
        (!U.Via || Defs.Forwarders.alwaysForwarded(U.Via)) &&
        llvm::none_of(U.Spelled,
                      [&](const IdentifierInfo *N) {
                        return Defs.Changed.contains(N);
                      }) &&
        (!U.Saved || !Defs.Changed.contains(PP.getIdentifierInfo(*U.Saved))) &&
        (!U.Silences || !PP.getDiagnostics().hasErrorOccurred());
    if (!Holds)
      UsedBy[U.Via ? U.Via : Pragma].push_back(U.Macro);
  }
  llvm::SmallPtrSet<const IdentifierInfo *, 32> Seen(Reaching.begin(),
                                                     Reaching.end());
  for (size_t I = 0; I < Reaching.size(); ++I)
    if (auto It = UsedBy.find(Reaching[I]); It != UsedBy.end())
      for (const IdentifierInfo *Macro : It->second)
        if (Seen.insert(Macro).second)
          Reaching.push_back(Macro);
  bool Lost = false;
  for (const SystemHeaderScans::Scan *S : Replayed)
    for (const IdentifierInfo *Name : Reaching)
      if (S->CodeNames.contains(Name->getName())) {
        Scans.lexInFull(*S);
        Lost = true;
        break;
      }
  return Lost;
}

} // namespace metacu
