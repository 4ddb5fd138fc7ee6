//===- Server.cpp ---------------------------------------------------------===//
#include "lsp/Server.h"
#include "lsp/ClangdProcess.h"
#include "lsp/Documents.h"
#include "lsp/MetaCompletion.h"
#include "lsp/Rewrite.h"
#include "lsp/SplicedFiles.h"
#include "lsp/Transport.h"
#include "lsp/Worker.h"
#include "support/Diagnostic.h"
#include "support/Output.h"
#include "toolchain/Invocation.h"
#include "toolchain/Preambles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cerrno>
#include <map>
#include <poll.h>
#include <set>
#include <time.h>
#include <unistd.h>

namespace json = llvm::json;

namespace metacu {

namespace {

/// A request whose answer is rewritten: its method and document.
struct Pending {
  std::string Method;
  std::string Uri;
  /// A completion clangd ran in a probe (MetaCompletion.h): the user's
  /// range its edits replace.
  std::optional<json::Object> ProbeEdit;
};

/// CPU milliseconds this thread has taken.
double threadCpuMilliseconds() {
  timespec T{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

std::string idKey(const json::Value &Id) {
  std::string S;
  llvm::raw_string_ostream(S) << Id;
  return S;
}

json::Object notification(llvm::StringRef Method, json::Object Params) {
  return json::Object{
      {"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}};
}

/// An expansion handed to the worker: the text expanded, and its result
/// once the worker is done.
struct Expansion {
  std::string Uri, Path;
  std::shared_ptr<TextLines> Text;
  PipelineOptions Options;
  std::optional<llvm::Expected<ExpandedFile>> Result;
};

/// Temporary files (the preludes and the files of spliced text clangd
/// reads), removed with the server.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    if (!llvm::sys::fs::createUniqueDirectory("metacu-lsp", P))
      Path = std::string(P);
  }
  ~TempDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

class Server {
public:
  Server(int In, int Out, const ServerOptions &Opts)
      : In(In), Out(Out), Opts(Opts),
        Map([this](llvm::StringRef Uri) { return find(Uri); },
            [this](llvm::StringRef Uri) { return findSpliced(Uri); },
            PositionEncoding::UTF16) {}

  llvm::Expected<int> run();

private:
  const Document *find(llvm::StringRef Uri) const {
    auto It = Docs.find(Uri);
    return It == Docs.end() ? nullptr : &It->second;
  }
  /// The files of spliced text the open documents' expansions include, by
  /// path.
  std::map<std::string, const SplicedFile *> splicedInUse() const {
    std::map<std::string, const SplicedFile *> Used;
    for (const auto &E : Docs)
      if (E.second.Expanded)
        for (const auto &F : E.second.Expanded->spliced())
          Used.emplace(F->Path, F.get());
    return Used;
  }
  /// The file of spliced text an open document's expansion includes that
  /// \p Uri names, if any.
  const SplicedFile *findSpliced(llvm::StringRef Uri) const {
    auto Path = uriToPath(Uri);
    if (!Path || !llvm::StringRef(*Path).starts_with(Temp.path() + "/"))
      return nullptr;
    auto Used = splicedInUse();
    auto It = Used.find(*Path);
    return It == Used.end() ? nullptr : It->second;
  }
  /// Writes the files of spliced text \p E includes that are not written
  /// yet.
  llvm::Error writeSpliced(const ExpandedDocument &E);
  /// Removes the files of spliced text no open document's expansion
  /// includes any longer.
  void removeUnusedSpliced();
  void toClient(const json::Value &V) { writeAll(Out, frameMessage(V)); }
  void toClangd(const json::Value &V) {
    writeAll(Clangd.input(), frameMessage(V));
  }
  void reply(const json::Value &Id, json::Value Result) {
    toClient(json::Object{
        {"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
  }

  void fromClient(json::Object Msg);
  void fromClangd(json::Object Msg);
  /// Starts expanding \p D on the worker, which is free.
  void expand(Document &D);
  /// Gives clangd the expansion the worker finished, if its document still
  /// has the text expanded (else a newer expansion is due).
  void expanded(Expansion &X);
  /// Gives clangd \p Text as \p D's contents, asking for its diagnostics
  /// at once: clangd's own debounce (up to 500 ms, as long as its last
  /// parses took) would only delay them, since the server sends an
  /// expansion after its own debounce and an edit of ordinary code while
  /// clangd parses an earlier text waits (Held). \p Text waits too while
  /// clangd parses an earlier text of a dialect file (whose diagnostics
  /// send it), unless \p Now. A text that is there for one request (a
  /// completion's probe) asks for none.
  void sendText(Document &D, llvm::StringRef Text, bool Now = false,
                bool WantDiagnostics = true);
  /// Gives clangd the text \p D holds back, if any: before a message about
  /// it, which is about that text.
  void sendHeld(Document &D);
  void publish(Document &D);
  /// Gives clangd \p D's compile command; false if it has it already.
  bool configure(Document &D, const PipelineOptions &P,
                 llvm::StringRef PreludePath);
  /// Makes \p Err metacu's diagnostics of \p D (its errors in the dialect
  /// headers it includes at the #include line that reads them, and on the
  /// header).
  void setMetacuDiagnostics(Document &D, llvm::Error Err);
  /// \p D's diagnostics, and those its includers' errors put on it.
  json::Array diagnosticsOf(const Document &D) const;
  /// Publishes the diagnostics of a header that is not an open dialect
  /// file: those its includers' errors put on it.
  void publishHeader(llvm::StringRef Uri);
  bool answerWithoutClangd(Document &D, const json::Value &Id,
                           llvm::StringRef Method, json::Object &Params);
  bool completeInProbe(Document &D, json::Object &Msg);
  /// \p D's expansion with the edit that turned \p Old into its text
  /// applied to its copies (ExpandedDocument::withEdit), if it has them.
  std::shared_ptr<ExpandedDocument> withEditApplied(const Document &D,
                                                    const TextLines &Old,
                                                    const TextEdit &E) const;
  bool editOrdinaryCode(Document &D, const TextLines &Old);
  /// Gives clangd a guess of \p D's expansion after the edits since
  /// \p Old, its last expansion's text, if one can be made.
  bool guessExpansion(Document &D, const TextLines &Old);
  std::optional<int> nextTimeout() const;
  /// Whether \p D waits for an expansion that may run now. One that only
  /// confirms an edit already applied to the expansion waits until clangd
  /// has answered that edit: on two cores the expansion would slow clangd's
  /// answer down. One that confirms a guess runs beside clangd's parse of
  /// it: the guess's diagnostics wait for it.
  static bool expandable(const Document &D) {
    return D.Due &&
           !(D.AwaitingClangd && D.ExpandedText == D.Text && !D.Guessed);
  }

  int In, Out;
  const ServerOptions &Opts;
  ClangdProcess Clangd;
  MessageReader FromClient, FromClangd;
  llvm::StringMap<Document> Docs;
  std::map<std::string, Pending> Requests;
  Mapper Map;
  TempDir Temp;
  /// The files of spliced text written (SplicedFiles.h).
  std::set<std::string> SplicedWritten;
  /// The command each dialect file was last configured with.
  llvm::StringMap<std::vector<std::string>> Commands;
  bool ShutDown = false, Exited = false;
  /// The expansion the worker runs; an edit meanwhile makes its result
  /// stale, and the document's next expansion waits until it is done.
  std::shared_ptr<Expansion> Running;
  /// The headers of the command lines the expansions parse with,
  /// precompiled once (toolchain/Preambles.h); the worker's only.
  Preambles Precompiled;
  /// Last: destroyed first, it waits for the expansion running.
  Worker Expander;
};

std::optional<int> Server::nextTimeout() const {
  if (Expander.busy())
    return std::nullopt;
  std::optional<Clock::time_point> First;
  for (const auto &E : Docs)
    if (expandable(E.second) && (!First || *E.second.Due < *First))
      First = E.second.Due;
  if (!First)
    return std::nullopt;
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(*First -
                                                                  Clock::now())
                .count();
  return Ms < 0 ? 0 : int(Ms);
}

llvm::Expected<int> Server::run() {
  std::vector<std::string> Args = Opts.ClangdArgs;
  if (auto Err = Clangd.start(Opts.Clangd, Args))
    return std::move(Err);
  char Buffer[65536];
  while (!Exited) {
    pollfd Fds[3] = {{In, POLLIN, 0},
                     {Clangd.output(), POLLIN, 0},
                     {Expander.doneFd(), POLLIN, 0}};
    auto Timeout = nextTimeout();
    int N = poll(Fds, 3, Timeout ? *Timeout : -1);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return llvm::errorCodeToError(
          std::error_code(errno, std::generic_category()));
    if ((Fds[2].revents & POLLIN) && Expander.finished()) {
      std::shared_ptr<Expansion> Done = std::move(Running);
      expanded(*Done);
    }
    // The document waiting longest goes first.
    Document *Next = nullptr;
    for (auto &E : Docs)
      if (expandable(E.second) && *E.second.Due <= Clock::now() &&
          (!Next || *E.second.Due < *Next->Due))
        Next = &E.second;
    if (Next && !Expander.busy())
      expand(*Next);
    // Guesses after the expansion has started: beside it, not before.
    for (auto &E : Docs)
      if (std::shared_ptr<TextLines> From = std::move(E.second.GuessFrom))
        if (E.second.ExpandedText == From)
          guessExpansion(E.second, *From);
    for (int I = 0; I < 2; ++I) {
      if (!(Fds[I].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t Got = read(Fds[I].fd, Buffer, sizeof Buffer);
      if (Got < 0 && errno == EINTR)
        continue;
      if (Got <= 0) {
        if (I == 0) // The editor went away without 'exit'.
          return 1;
        return llvm::createStringError(
            "clangd ended before the editor sent 'exit'");
      }
      MessageReader &R = I == 0 ? FromClient : FromClangd;
      R.feed(llvm::StringRef(Buffer, Got));
      while (auto Msg = R.next()) {
        if (!*Msg) {
          llvm::errs() << "metacu lsp: " << llvm::toString(Msg->takeError())
                       << "\n";
          continue;
        }
        json::Object *O = (*Msg)->getAsObject();
        if (!O)
          continue;
        if (I == 0)
          fromClient(std::move(*O));
        else
          fromClangd(std::move(*O));
        if (Exited)
          break;
      }
    }
  }
  Clangd.wait();
  return ShutDown ? 0 : 1;
}

void Server::fromClient(json::Object Msg) {
  auto Method = Msg.getString("method");
  const json::Value *Id = Msg.get("id");
  if (!Method) { // The editor's answer to a request of clangd's.
    toClangd(std::move(Msg));
    return;
  }
  std::string M = Method->str();
  json::Object *Params = Msg.getObject("params");
  const json::Object *TD = Params ? Params->getObject("textDocument") : nullptr;
  std::string Uri =
      TD && TD->getString("uri") ? TD->getString("uri")->str() : std::string();

  if (M == "textDocument/didOpen" && TD) {
    auto Path = uriToPath(Uri);
    auto Text = TD->getString("text");
    if (!Path || !Text) {
      toClangd(std::move(Msg));
      return;
    }
    Document &D = Docs[Uri];
    D = Document();
    D.Uri = Uri;
    D.Path = *Path;
    D.Text = std::make_shared<TextLines>(Text->str());
    D.Version = TD->getInteger("version").value_or(0);
    D.Dialect = isDialect(D.Path, *Text);
    if (!D.Dialect) {
      D.InClangd = true;
      D.ClangdVersion = D.Version;
      toClangd(std::move(Msg));
      return;
    }
    D.Due = Clock::now();
    return;
  }
  auto It = Docs.find(Uri);
  Document *D = It == Docs.end() ? nullptr : &It->second;
  if (M == "textDocument/didChange" && D) {
    const json::Array *Changes = Params->getArray("contentChanges");
    std::string Text = D->Text->text().str();
    for (const json::Value &C : Changes ? *Changes : json::Array()) {
      const json::Object *CO = C.getAsObject();
      if (!CO)
        continue;
      auto New = applyChange(TextLines(Text), *CO, Map.encoding());
      if (!New) {
        llvm::errs() << "metacu lsp: " << llvm::toString(New.takeError())
                     << "\n";
        continue;
      }
      Text = std::move(*New);
    }
    std::shared_ptr<TextLines> Old = std::move(D->Text);
    D->Text = std::make_shared<TextLines>(std::move(Text));
    // The first edit after a pause is expanded at once; the edits that
    // follow it closely wait until typing pauses for the debounce.
    Clock::time_point Now = Clock::now();
    bool AfterPause = !D->Changed || Now - *D->Changed >= Opts.Debounce;
    D->Changed = Now;
    D->Version = TD->getInteger("version").value_or(D->Version + 1);
    if (!D->Dialect && !isDialect(D->Path, D->Text->text())) {
      sendHeld(*D);
      D->ClangdVersion = D->Version;
      toClangd(std::move(Msg));
      return;
    }
    if (D->Dialect && D->ExpandedText == Old && !D->Guessed &&
        editOrdinaryCode(*D, *Old))
      return;
    if (D->Dialect && D->ExpandedText == Old && !D->GuessFrom)
      D->GuessFrom = Old;
    D->Due = AfterPause ? Now : Now + Opts.Debounce;
    return;
  }
  if (M == "textDocument/didClose" && D) {
    if (D->InClangd)
      toClangd(std::move(Msg));
    std::vector<std::string> Headers = std::move(D->PublishedHeaders);
    Docs.erase(It);
    removeUnusedSpliced();
    // Its errors leave the headers they were shown on.
    for (const std::string &H : Headers)
      if (auto Open = Docs.find(H); Open != Docs.end() && Open->second.Dialect)
        publish(Open->second);
      else
        publishHeader(H);
    return;
  }
  if (M == "exit") {
    toClangd(std::move(Msg));
    Exited = true;
    return;
  }
  if (M == "shutdown")
    ShutDown = true;
  if (M == "textDocument/didSave" && D && !D->InClangd)
    return;
  if (D && D->Dialect && Id && Params) {
    if (M == "textDocument/completion" && D->Expanded &&
        completeInProbe(*D, Msg))
      return;
    if (answerWithoutClangd(*D, *Id, M, *Params))
      return;
  }
  if (Id)
    Requests[idKey(*Id)] = {M, D && D->Dialect ? Uri : std::string()};
  if (D)
    sendHeld(*D);
  toClangd(std::move(Msg));
}

/// The empty answer of a request about a place clangd has no copy of.
static json::Value emptyResult(llvm::StringRef Method) {
  if (Method == "textDocument/completion")
    return json::Object{{"isIncomplete", false}, {"items", json::Array()}};
  if (Method == "textDocument/references" ||
      Method == "textDocument/documentHighlight" ||
      Method == "textDocument/documentSymbol" ||
      Method == "textDocument/codeAction" ||
      Method == "textDocument/inlayHint" ||
      Method == "textDocument/foldingRange" ||
      Method == "textDocument/formatting" ||
      Method == "textDocument/rangeFormatting" ||
      Method == "textDocument/onTypeFormatting" ||
      Method == "textDocument/willSaveWaitUntil")
    return json::Array();
  return nullptr;
}

/// Whether \p Method answers with edits. clangd's edits of a dialect file
/// are edits of its expansion: one in generated text has no place in the
/// user's, and a rename would miss the uses in meta code. They are never
/// applied to the user's text.
static bool answersWithEdits(llvm::StringRef Method) {
  return Method == "textDocument/rename" ||
         Method == "textDocument/prepareRename" ||
         Method == "textDocument/codeAction" ||
         Method == "textDocument/formatting" ||
         Method == "textDocument/rangeFormatting" ||
         Method == "textDocument/onTypeFormatting" ||
         Method == "textDocument/willSaveWaitUntil";
}

/// How long after an edit of ordinary code (applied to the expansion at
/// once) the whole file is expanded again, to confirm it: a pause in
/// typing, so that clangd's answer to the edit comes first.
constexpr std::chrono::milliseconds ConfirmAfter{1000};

/// An edit of ordinary code changes the expansion only where the lines it
/// touches are copied (Documents.h), and moves what follows: clangd gets
/// the edited expansion without waiting for the generator, and the whole
/// file is expanded once typing pauses, in case the edit meant more (a
/// call that makes a helper __host__ __device__, a line number).
bool Server::editOrdinaryCode(Document &D, const TextLines &Old) {
  if (!D.Expanded || !D.MetacuDiagnostics.empty())
    return false;
  TextEdit E = difference(Old.text(), D.Text->text());
  if (!editsOrdinaryCode(D.Path, Old.text(), D.Text->text(), E)) {
    // The same edit told further back may not touch the line it touched
    // (a line break typed at the start of a directive's line is one typed
    // at the end of the line before).
    TextEdit Back = movedBack(Old.text(), E);
    if (Back.Begin == E.Begin ||
        !editsOrdinaryCode(D.Path, Old.text(), D.Text->text(), Back))
      return false;
    E = std::move(Back);
  }
  std::shared_ptr<ExpandedDocument> Edited = withEditApplied(D, Old, E);
  if (!Edited)
    return false;
  D.Expanded = std::move(Edited);
  D.ExpandedText = D.Text;
  D.ClangdDiagnostics.clear();
  sendText(D, D.Expanded->body().text());
  D.Due = Clock::now() + ConfirmAfter;
  return true;
}

std::shared_ptr<ExpandedDocument>
Server::withEditApplied(const Document &D, const TextLines &Old,
                        const TextEdit &E) const {
  if (Old.text().slice(E.Begin, E.End).contains('\n') ||
      llvm::StringRef(E.Text).contains('\n'))
    return D.Expanded->withEdit(Old, *D.Text, E.Begin, E.End);
  // Within a line: the edited bytes' copies, also on a line with a meta
  // value.
  LspPosition At = Old.position(E.Begin, PositionEncoding::UTF8);
  unsigned Col = At.Character;
  return D.Expanded->withLineEdit(At.Line, Col, Col + (E.End - E.Begin),
                                  E.Text);
}

/// An edit that may change more than the copies of what it edits (a
/// directive added above the first meta statement changes the generator
/// program, which may change anything) most often changes only them and
/// the line numbers after it: clangd parses that guess while the file is
/// expanded, and the expansion confirms it byte for byte before clangd's
/// diagnostics of it are shown (expanded()); else clangd gets the
/// expansion. Not for an edit of meta code (of a construct, '@', or a
/// codegen condition), whose expansion is never its copies edited.
bool Server::guessExpansion(Document &D, const TextLines &Old) {
  if (!D.Expanded || !D.MetacuDiagnostics.empty())
    return false;
  Clock::time_point Start = Clock::now();
  double StartCpu = threadCpuMilliseconds();
  TextEdit E = difference(Old.text(), D.Text->text());
  for (llvm::StringRef Part :
       {Old.text().slice(E.Begin, E.End), llvm::StringRef(E.Text)})
    if (Part.contains('@') || Part.contains("codegen"))
      return false;
  std::shared_ptr<ExpandedDocument> Guess = withEditApplied(D, Old, E);
  if (!Guess)
    return false;
  D.Expanded = std::move(Guess);
  D.ExpandedText = D.Text;
  D.Guessed = true;
  D.ClangdDiagnostics.clear();
  sendText(D, D.Expanded->body().text());
  if (Opts.TimeStages)
    llvm::errs() << llvm::formatv(
        "metacu lsp: guess of {0} made in {1:f1} ms (cpu {2:f1})\n", D.Path,
        std::chrono::duration<double, std::milli>(Clock::now() - Start).count(),
        threadCpuMilliseconds() - StartCpu);
  return true;
}

bool Server::completeInProbe(Document &D, json::Object &Msg) {
  json::Object &Params = *Msg.getObject("params");
  const json::Object *P = Params.getObject("position");
  if (!P)
    return false;
  LspPosition Pos{unsigned(P->getInteger("line").value_or(0)),
                  unsigned(P->getInteger("character").value_or(0))};
  unsigned Cursor = D.Text->offset(Pos, Map.encoding());
  auto Probe = metaMemberProbe(D.Path, D.Text->text(), Cursor,
                               D.Expanded->body().text());
  if (!Probe)
    return false;
  // clangd completes in the text it holds when the request arrives: the
  // probe goes in just before and the expansion back just after.
  TextLines ProbeText(Probe->Text);
  Params["position"] = json::Object{
      {"line", ProbeText.position(Probe->Cursor, Map.encoding()).Line},
      {"character",
       ProbeText.position(Probe->Cursor, Map.encoding()).Character}};
  LspPosition Begin = D.Text->position(Probe->WordBegin, Map.encoding());
  Requests[idKey(*Msg.get("id"))] = {
      "textDocument/completion", D.Uri,
      json::Object{{"start", json::Object{{"line", Begin.Line},
                                          {"character", Begin.Character}}},
                   {"end", json::Object{{"line", Pos.Line},
                                        {"character", Pos.Character}}}}};
  sendHeld(D);
  sendText(D, Probe->Text, /*Now=*/true, /*WantDiagnostics=*/false);
  toClangd(std::move(Msg));
  sendText(D, D.Expanded->body().text(), /*Now=*/true);
  return true;
}

bool Server::answerWithoutClangd(Document &D, const json::Value &Id,
                                 llvm::StringRef Method, json::Object &Params) {
  if (Method == "textDocument/rename" ||
      Method == "textDocument/prepareRename") {
    toClient(json::Object{
        {"jsonrpc", "2.0"},
        {"id", Id},
        {"error", json::Object{{"code", -32803},
                               {"message", "metacu lsp: renaming in a dialect "
                                           "file is not supported (clangd "
                                           "sees its expansion, not meta "
                                           "code)"}}}});
    return true;
  }
  if (!D.Expanded || answersWithEdits(Method)) {
    reply(Id, emptyResult(Method));
    return true;
  }
  if (Map.requestToClangd(D, Params))
    return false;
  // Meta code has no copy in the expansion. Hovering a meta value shows
  // the constant it became, for the pass shown.
  if (Method == "textDocument/hover") {
    if (const json::Object *P = Params.getObject("position")) {
      LspPosition Pos{unsigned(P->getInteger("line").value_or(0)),
                      unsigned(P->getInteger("character").value_or(0))};
      LspPosition B = D.Text->position(D.Text->offset(Pos, Map.encoding()),
                                       PositionEncoding::UTF8);
      llvm::StringRef Line = D.Text->line(B.Line);
      // The value is recorded at the start of its chain (cfg.table[2].nt).
      for (unsigned Col = std::min<unsigned>(B.Character, Line.size());;
           --Col) {
        if (auto Value = D.Expanded->generatedAt(B.Line, Col)) {
          reply(Id, json::Object{
                        {"contents", json::Object{{"kind", "markdown"},
                                                  {"value", "meta value: `" +
                                                                *Value + "`"}}},
                        {"range", Map.tokenRange(*D.Text, B.Line, Col)}});
          return true;
        }
        if (Col == 0 || !(llvm::isAlnum(Line[Col - 1]) ||
                          llvm::StringRef("_.[]->").contains(Line[Col - 1])))
          break;
      }
    }
  }
  reply(Id, emptyResult(Method));
  return true;
}

void Server::fromClangd(json::Object Msg) {
  auto Method = Msg.getString("method");
  if (Method) {
    json::Object *Params = Msg.getObject("params");
    if (*Method == "workspace/applyEdit" && Params)
      if (json::Object *Edit = Params->getObject("edit"))
        Map.dropDialectEdits(*Edit);
    auto Uri = Params ? Params->getString("uri") : std::nullopt;
    if (!Uri && Params)
      if (const json::Object *TD = Params->getObject("textDocument"))
        Uri = TD->getString("uri");
    auto It = Uri ? Docs.find(*Uri) : Docs.end();
    Document *D = It == Docs.end() ? nullptr : &It->second;
    if (D && D->Dialect && *Method == "textDocument/publishDiagnostics") {
      // Only of the text clangd holds now: not of an older one, nor the
      // versionless clearing of a document closed before this one opened.
      auto Version = Params->getInteger("version");
      if (!Version || *Version != D->ClangdVersion)
        return;
      if (D->Held) { // Of a text since replaced.
        sendHeld(*D);
        return;
      }
      if (const json::Array *Diags = Params->getArray("diagnostics"))
        D->ClangdDiagnostics = *Diags;
      D->AwaitingClangd = false;
      if (!D->Guessed) // else they wait for the expansion (expanded())
        publish(*D);
      return;
    }
    if (D && D->Dialect && *Method == "textDocument/inactiveRegions") {
      if (!D->Expanded)
        return;
      const json::Array *Regions = Params->getArray("regions");
      (*Params)["regions"] =
          Map.inactiveRegionsToUser(*D, Regions ? *Regions : json::Array());
      toClient(std::move(Msg));
      return;
    }
    toClient(std::move(Msg));
    return;
  }
  const json::Value *Id = Msg.get("id");
  if (!Id) {
    toClient(std::move(Msg));
    return;
  }
  auto P = Requests.find(idKey(*Id));
  if (P == Requests.end()) {
    toClient(std::move(Msg));
    return;
  }
  Pending Req = std::move(P->second);
  Requests.erase(P);
  json::Value *Result = Msg.get("result");
  if (Result && Req.Method == "initialize") {
    if (json::Object *Caps =
            Result->getAsObject()
                ? Result->getAsObject()->getObject("capabilities")
                : nullptr) {
      auto Enc = Caps->getString("positionEncoding");
      if (!Enc)
        Enc = Caps->getString("offsetEncoding");
      Map = Mapper([this](llvm::StringRef Uri) { return find(Uri); },
                   [this](llvm::StringRef Uri) { return findSpliced(Uri); },
                   Enc ? parseEncoding(*Enc) : PositionEncoding::UTF16);
      // Deltas of semantic tokens would be deltas of the expansion's.
      if (json::Object *ST = Caps->getObject("semanticTokensProvider"))
        (*ST)["full"] = true;
    }
  } else if (Result && Req.ProbeEdit) {
    json::Object *O = Result->getAsObject();
    json::Array *Items = O ? O->getArray("items") : Result->getAsArray();
    for (json::Value &V : Items ? *Items : json::Array()) {
      json::Object *Item = V.getAsObject();
      if (!Item)
        continue;
      Item->erase("additionalTextEdits");
      if (json::Object *Edit = Item->getObject("textEdit")) {
        Edit->erase("insert");
        Edit->erase("replace");
        json::Object Range = *Req.ProbeEdit;
        (*Edit)["range"] = std::move(Range);
      }
    }
  } else if (Result) {
    const Document *D = Req.Uri.empty() ? nullptr : find(Req.Uri);
    Map.resultToUser(Req.Method, D, *Result);
  }
  toClient(std::move(Msg));
}

void Server::sendHeld(Document &D) {
  if (!D.Held)
    return;
  std::string Text = std::move(*D.Held);
  D.Held.reset();
  sendText(D, Text, /*Now=*/true);
}

void Server::sendText(Document &D, llvm::StringRef Text, bool Now,
                      bool WantDiagnostics) {
  if (D.Dialect && D.InClangd && D.AwaitingClangd && !Now) {
    D.Held = Text.str();
    return;
  }
  D.Held.reset();
  ++D.ClangdVersion;
  D.AwaitingClangd = true;
  if (!D.InClangd) {
    D.InClangd = true;
    toClangd(notification(
        "textDocument/didOpen",
        json::Object{{"textDocument", json::Object{{"uri", D.Uri},
                                                   {"languageId", "cuda"},
                                                   {"version", D.ClangdVersion},
                                                   {"text", Text.str()}}}}));
    return;
  }
  toClangd(notification(
      "textDocument/didChange",
      json::Object{
          {"textDocument",
           json::Object{{"uri", D.Uri}, {"version", D.ClangdVersion}}},
          {"contentChanges", json::Array{json::Object{{"text", Text.str()}}}},
          {"wantDiagnostics", WantDiagnostics}}));
}

bool Server::configure(Document &D, const PipelineOptions &P,
                       llvm::StringRef PreludePath) {
  InvocationOptions IO;
  IO.Mode = ClangMode::Verify;
  IO.RuntimeInclude = P.RuntimeInclude;
  if (Opts.ShownPass)
    IO.GpuArch = Opts.Archs.archs()[Opts.ShownPass - 1].name();
  std::vector<std::string> Command;
  // The driver beside clangd (clangd reads its name for the driver mode
  // and where to look for the toolchain).
  llvm::SmallString<256> Driver;
  if (llvm::sys::fs::real_path(Opts.Clangd, Driver))
    Driver = Opts.Clangd;
  llvm::sys::path::remove_filename(Driver);
  llvm::sys::path::append(Driver, "clang++");
  for (std::string &A : clangCommandLine(P.Toolkit, P.Flags, IO, D.Path)) {
    // clangd does its own parsing, and shows the user's warnings.
    if (A == "-fsyntax-only" || A == "-w")
      continue;
    Command.push_back(std::move(A));
  }
  Command.front() = std::string(Driver);
  // Before the file: the prelude (nvvm_arch_t, __nvvm_arch) comes first,
  // outside the text clangd reparses on each edit.
  Command.insert(Command.end() - 1, {"-include", PreludePath.str()});
  auto &Last = Commands[D.Path];
  if (Last == Command)
    return false;
  Last = Command;
  json::Array Args;
  for (const std::string &A : Command)
    Args.push_back(A);
  toClangd(notification(
      "workspace/didChangeConfiguration",
      json::Object{
          {"settings",
           json::Object{
               {"compilationDatabaseChanges",
                json::Object{
                    {D.Path,
                     json::Object{
                         {"workingDirectory",
                          llvm::sys::path::parent_path(D.Path).str()},
                         {"compilationCommand", std::move(Args)}}}}}}}}));
  return true;
}

void Server::setMetacuDiagnostics(Document &D, llvm::Error Err) {
  json::Array Out;
  llvm::StringMap<json::Array> InHeaders;
  auto Severity = [](llvm::StringRef S) {
    return S == "warning" ? 2 : S == "note" ? 3 : 1;
  };
  auto Add = [&](llvm::StringRef S, llvm::StringRef Message, json::Object Range,
                 std::optional<json::Object> Related) {
    if (S == "note" && !Out.empty()) {
      json::Object &Prev = *Out.back().getAsObject();
      if (!Prev.getArray("relatedInformation"))
        Prev["relatedInformation"] = json::Array();
      if (Related)
        Prev.getArray("relatedInformation")
            ->push_back(json::Object{{"location", std::move(*Related)},
                                     {"message", Message.str()}});
      return;
    }
    Out.push_back(json::Object{{"range", std::move(Range)},
                               {"severity", Severity(S)},
                               {"source", "metacu"},
                               {"message", Message.str()}});
  };
  json::Object Top{{"start", json::Object{{"line", 0}, {"character", 0}}},
                   {"end", json::Object{{"line", 0}, {"character", 0}}}};
  llvm::handleAllErrors(
      std::move(Err),
      [&](const SourceError &E) {
        LineCol W = E.where();
        llvm::SmallString<256> Path(E.path());
        if (llvm::sys::path::is_relative(Path)) {
          Path = llvm::sys::path::parent_path(D.Path);
          llvm::sys::path::append(Path, E.path());
        }
        if (Path == D.Path && W.Line) {
          auto R = [&] {
            return Map.tokenRange(*D.Text, W.Line - 1, W.Col - 1);
          };
          Add(E.severity(), E.text(), R(),
              json::Object{{"uri", D.Uri}, {"range", R()}});
          return;
        }
        // In a dialect header: on the header, at its place, in the
        // command line's words...
        std::string HeaderUri = pathToUri(Path);
        std::optional<TextLines> Disk;
        const TextLines *Header = nullptr;
        if (const Document *Open = find(HeaderUri))
          Header = Open->Text.get();
        else if (auto Buffer = llvm::MemoryBuffer::getFile(Path))
          Header = &Disk.emplace((*Buffer)->getBuffer().str());
        json::Object At{
            {"start", json::Object{{"line", W.Line ? W.Line - 1 : 0},
                                   {"character", W.Col ? W.Col - 1 : 0}}},
            {"end", json::Object{{"line", W.Line ? W.Line - 1 : 0},
                                 {"character", W.Col ? W.Col - 1 : 0}}}};
        if (Header && W.Line)
          At = Map.tokenRange(*Header, W.Line - 1, W.Col - 1);
        if (E.severity() != "note")
          InHeaders[HeaderUri].push_back(
              json::Object{{"range", json::Object(At)},
                           {"severity", Severity(E.severity())},
                           {"source", "metacu"},
                           {"message", E.text()}});
        // ...and in this file at the #include that reads it (the expansion
        // knows which one spliced the header; at the top where none of its
        // own does), as clangd shows an error of an included file.
        std::string Where = E.path().str();
        if (W.Line)
          Where += ":" + std::to_string(W.Line) + ":" + std::to_string(W.Col);
        json::Object Line = Top;
        if (unsigned Included = E.includedAt()) {
          unsigned L = Included - 1;
          llvm::StringRef Text = D.Text->line(L);
          unsigned Start = D.Text->offset({L, 0}, PositionEncoding::UTF8);
          LspPosition B = D.Text->position(
              Start + Text.size() - Text.ltrim().size(), Map.encoding());
          LspPosition End =
              D.Text->position(Start + Text.rtrim().size(), Map.encoding());
          Line = json::Object{
              {"start",
               json::Object{{"line", B.Line}, {"character", B.Character}}},
              {"end",
               json::Object{{"line", End.Line}, {"character", End.Character}}}};
        }
        json::Object InHeader{{"uri", HeaderUri}, {"range", std::move(At)}};
        bool Note = E.severity() == "note" && !Out.empty();
        Add(E.severity(), Where + ": " + E.text(), std::move(Line), InHeader);
        // The place in the header, for the editor to go to.
        if (!Note)
          Out.back().getAsObject()->try_emplace(
              "relatedInformation",
              json::Array{json::Object{{"location", std::move(InHeader)},
                                       {"message", E.text()}}});
      },
      [&](const llvm::ErrorInfoBase &E) {
        Add("error", E.message(), Top, std::nullopt);
      });
  D.MetacuDiagnostics = std::move(Out);
  D.HeaderDiagnostics = std::move(InHeaders);
}

json::Array Server::diagnosticsOf(const Document &D) const {
  // clangd's of a guess are not shown until an expansion confirms it,
  // whoever publishes meanwhile (a header's includer).
  json::Array Diags = !D.MetacuDiagnostics.empty() ? D.MetacuDiagnostics
                      : D.Guessed
                          ? json::Array()
                          : Map.diagnosticsToUser(D, D.ClangdDiagnostics);
  // What the errors of the files that include it put on it, each once (a
  // dialect header open on its own may fail alike): a place and words
  // already shown are not shown again.
  auto Shown = [&](const json::Value &V) {
    const json::Object *O = V.getAsObject();
    return llvm::any_of(Diags, [&](const json::Value &W) {
      const json::Object *P = W.getAsObject();
      return O && P && O->get("range") && P->get("range") &&
             *O->get("range") == *P->get("range") &&
             O->getString("message") == P->getString("message");
    });
  };
  for (const auto &E : Docs) {
    auto It = E.second.HeaderDiagnostics.find(D.Uri);
    if (&E.second == &D || It == E.second.HeaderDiagnostics.end())
      continue;
    for (const json::Value &V : It->second)
      if (!Shown(V))
        Diags.push_back(V);
  }
  return Diags;
}

void Server::publishHeader(llvm::StringRef Uri) {
  json::Array Diags;
  for (const auto &E : Docs)
    if (auto It = E.second.HeaderDiagnostics.find(Uri);
        It != E.second.HeaderDiagnostics.end())
      for (const json::Value &V : It->second)
        if (!llvm::is_contained(Diags, V))
          Diags.push_back(V);
  toClient(notification(
      "textDocument/publishDiagnostics",
      json::Object{{"uri", Uri}, {"diagnostics", std::move(Diags)}}));
}

void Server::publish(Document &D) {
  toClient(notification("textDocument/publishDiagnostics",
                        json::Object{{"uri", D.Uri},
                                     {"version", D.Version},
                                     {"diagnostics", diagnosticsOf(D)}}));
  // The headers its errors are on now, and those they have left.
  std::vector<std::string> Headers = std::move(D.PublishedHeaders);
  D.PublishedHeaders.clear();
  for (const auto &H : D.HeaderDiagnostics) {
    D.PublishedHeaders.push_back(H.getKey().str());
    if (!llvm::is_contained(Headers, H.getKey()))
      Headers.push_back(H.getKey().str());
  }
  for (const std::string &H : Headers) {
    if (H == D.Uri)
      continue;
    auto Open = Docs.find(H);
    if (Open == Docs.end() || !Open->second.Dialect)
      publishHeader(H);
    else
      toClient(notification(
          "textDocument/publishDiagnostics",
          json::Object{{"uri", H},
                       {"version", Open->second.Version},
                       {"diagnostics", diagnosticsOf(Open->second)}}));
  }
}

llvm::Error Server::writeSpliced(const ExpandedDocument &E) {
  // A file's name is its contents': one written is never written again.
  for (const auto &F : E.spliced())
    if (SplicedWritten.insert(F->Path).second)
      if (auto Err = writeOutput(F->Path, F->Text.text())) {
        SplicedWritten.erase(F->Path);
        return Err;
      }
  return llvm::Error::success();
}

void Server::removeUnusedSpliced() {
  auto Used = splicedInUse();
  for (auto It = SplicedWritten.begin(); It != SplicedWritten.end();)
    if (Used.count(*It)) {
      ++It;
    } else {
      llvm::sys::fs::remove(*It);
      It = SplicedWritten.erase(It);
    }
}

void Server::expand(Document &D) {
  D.Due.reset();
  if (!isDialect(D.Path, D.Text->text())) {
    // No longer in the dialect: clangd gets the text itself.
    D.Dialect = false;
    D.Expanded.reset();
    removeUnusedSpliced();
    D.MetacuDiagnostics.clear();
    D.HeaderDiagnostics.clear();
    D.ClangdDiagnostics.clear();
    sendText(D, D.Text->text());
    return;
  }
  D.Dialect = true;
  auto P = Opts.OptionsFor(D.Path);
  if (!P) {
    setMetacuDiagnostics(D, P.takeError());
    publish(D);
    return;
  }
  P->OutputName = llvm::sys::path::filename(D.Path).str() + ".gen.cu";
  // The file is expanded again on each edit: the interpreter that runs its
  // generator, started with the library and prelude, is kept for the next,
  // and so are the precompiled headers of the Clang runs' command lines.
  P->KeepInterpreter = true;
  P->Precompiled = &Precompiled;
  Running = std::make_shared<Expansion>();
  Running->Uri = D.Uri;
  Running->Path = D.Path;
  Running->Text = D.Text;
  Running->Options = std::move(*P);
  Expander.run([X = Running, &Archs = Opts.Archs] {
    X->Result.emplace(expandFile(SourceFile(X->Path, X->Text->text().str()),
                                 Archs, X->Options));
  });
}

void Server::expanded(Expansion &Done) {
  if (Opts.TimeStages && *Done.Result) {
    std::string Line = "metacu lsp: stages of " + Done.Path + ":";
    for (const StageTime &T : (*Done.Result)->Timings)
      Line += llvm::formatv(" {0} {1:f1} ms (cpu {2:f1});", T.Stage,
                            T.Milliseconds, T.CpuMilliseconds)
                  .str();
    llvm::errs() << Line << "\n";
  }
  auto It = Docs.find(Done.Uri);
  if (It == Docs.end() || It->second.Text != Done.Text) {
    if (!*Done.Result)
      llvm::consumeError(Done.Result->takeError());
    return;
  }
  Document &D = It->second;
  llvm::Expected<ExpandedFile> &X = *Done.Result;
  if (!X) {
    setMetacuDiagnostics(D, X.takeError());
    publish(D);
    return;
  }
  D.MetacuDiagnostics.clear();
  D.HeaderDiagnostics.clear();
  D.ExpandedText = D.Text;
  // The dialect headers' text goes to clangd as files the body includes,
  // so that clangd's preamble holds it (SplicedFiles.h).
  SplitExpansion Split =
      splitSplicedText(X->Text, X->BodyOffset, X->Map, D.Path, Temp.path());
  auto E = std::make_shared<ExpandedDocument>(
      Split.Text, X->BodyOffset, std::move(Split.Map), D.Path,
      uint64_t(1) << Opts.ShownPass, std::move(Split.Files));
  if (auto Err = writeSpliced(*E)) {
    setMetacuDiagnostics(D, std::move(Err));
    publish(D);
    return;
  }
  // One prelude per file, rewritten only when it changes (another target
  // list), so that clangd keeps its preamble.
  std::string Prelude =
      Temp.path() + "/" + llvm::utohexstr(llvm::xxh3_64bits(D.Path)) + ".h";
  if (!D.Expanded || D.Expanded->prelude() != E->prelude())
    if (auto Err = writeOutput(Prelude, E->prelude())) {
      setMetacuDiagnostics(D, std::move(Err));
      publish(D);
      return;
    }
  bool Reconfigured = configure(D, Done.Options, Prelude);
  bool Same = !Reconfigured && D.Expanded &&
              D.Expanded->body().text() == E->body().text() &&
              (!D.Guessed || D.Expanded->prelude() == E->prelude());
  if (Opts.TimeStages && D.Guessed)
    llvm::errs() << "metacu lsp: guess of " << D.Path << " "
                 << (Same ? "confirmed" : "not confirmed") << "\n";
  D.Guessed = false;
  D.Expanded = std::move(E);
  removeUnusedSpliced();
  if (Same) {
    // clangd would not parse the same text again, nor say anything: its
    // diagnostics of it stand (metacu's, if any, are gone), or are still
    // to come.
    if (!D.AwaitingClangd)
      publish(D);
    return;
  }
  D.ClangdDiagnostics.clear();
  sendText(D, D.Expanded->body().text());
}

} // namespace

llvm::Expected<int> serve(int In, int Out, const ServerOptions &Opts) {
  Server S(In, Out, Opts);
  return S.run();
}

} // namespace metacu
