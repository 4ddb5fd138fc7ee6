//===- Rewrite.cpp --------------------------------------------------------===//
#include "lsp/Rewrite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <set>
#include <tuple>

namespace json = llvm::json;

namespace metacu {

namespace {

std::optional<LspPosition> readPosition(const json::Value *V) {
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return std::nullopt;
  auto L = O->getInteger("line"), C = O->getInteger("character");
  if (!L || !C || *L < 0 || *C < 0)
    return std::nullopt;
  return LspPosition{unsigned(*L), unsigned(*C)};
}

json::Object position(LspPosition P) {
  return json::Object{{"line", P.Line}, {"character", P.Character}};
}

json::Object range(LspPosition Begin, LspPosition End) {
  return json::Object{{"start", position(Begin)}, {"end", position(End)}};
}

/// Removes later duplicates from \p A: one place found in several unrolled
/// copies is one answer.
void removeDuplicates(json::Array &A) {
  json::Array Kept;
  for (json::Value &V : A)
    if (llvm::none_of(Kept, [&](const json::Value &K) { return K == V; }))
      Kept.push_back(std::move(V));
  A = std::move(Kept);
}

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

} // namespace

const TextLines *Mapper::userText(llvm::StringRef Path) const {
  if (const Document *D = Find(pathToUri(Path)))
    return D->Text.get();
  auto It = Files.find(Path);
  if (It != Files.end())
    return It->second.get();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  std::shared_ptr<TextLines> T;
  if (Buffer)
    T = std::make_shared<TextLines>((*Buffer)->getBuffer().str());
  Files[Path] = T;
  return T.get();
}

json::Object Mapper::tokenRange(const TextLines &Text, unsigned Line,
                                unsigned Col) const {
  llvm::StringRef L = Text.line(Line);
  unsigned End = Col;
  // '@meta', '@mtype': the construct's keyword reads as one word.
  if (End + 1 < L.size() && L[End] == '@' && isIdentChar(L[End + 1]))
    ++End;
  while (End < L.size() && isIdentChar(L[End]))
    ++End;
  if (End == Col && End < L.size())
    ++End;
  unsigned Start = Text.offset({Line, 0}, PositionEncoding::UTF8);
  return range(Text.position(Start + Col, Encoding),
               Text.position(Start + End, Encoding));
}

std::optional<LspPosition> Mapper::toClangd(const Document &D,
                                            LspPosition P) const {
  if (!D.Expanded)
    return std::nullopt;
  LspPosition Bytes =
      D.Text->position(D.Text->offset(P, Encoding), PositionEncoding::UTF8);
  auto Offset = D.Expanded->toBody(Bytes.Line, Bytes.Character);
  if (!Offset)
    return std::nullopt;
  return D.Expanded->body().position(*Offset, Encoding);
}

bool Mapper::requestToClangd(const Document &D, json::Object &Params) const {
  if (json::Value *P = Params.get("position")) {
    auto Pos = readPosition(P);
    auto Mapped = Pos ? toClangd(D, *Pos) : std::nullopt;
    if (!Mapped)
      return false;
    *P = position(*Mapped);
  }
  if (json::Object *R = Params.getObject("range")) {
    // A range of the user's text may span copies of several passes; the
    // whole expansion is asked and the answers land where they belong.
    const TextLines &Body = D.Expanded->body();
    *R = range({0, 0}, Body.position(Body.text().size(), Encoding));
  }
  return true;
}

/// The document's line that line \p BodyLine of its expansion copies (by
/// its first non-blank byte); none for the emit stage's own lines.
static std::optional<unsigned> userLine(const Document &D, int64_t BodyLine) {
  const TextLines &Body = D.Expanded->body();
  if (BodyLine < 0 || BodyLine >= Body.lineCount())
    return std::nullopt;
  llvm::StringRef L = Body.line(BodyLine);
  size_t Col = L.find_first_not_of(" \t");
  if (Col == llvm::StringRef::npos)
    return std::nullopt;
  auto P = D.Expanded->toUser(
      Body.offset({unsigned(BodyLine), 0}, PositionEncoding::UTF8) + Col);
  if (!P || P->Path != D.Path)
    return std::nullopt;
  return P->Line;
}

json::Array Mapper::inactiveRegionsToUser(const Document &D,
                                          const json::Array &Regions) const {
  if (!D.Expanded)
    return json::Array();
  std::set<unsigned> Lines;
  for (const json::Value &R : Regions) {
    const json::Object *O = R.getAsObject();
    auto S = O ? readPosition(O->get("start")) : std::nullopt;
    auto E = O ? readPosition(O->get("end")) : std::nullopt;
    if (!S || !E)
      continue;
    for (unsigned L = S->Line; L <= E->Line; ++L)
      if (auto U = userLine(D, L))
        Lines.insert(*U);
  }
  // A line some byte of which has a copy the pass shown keeps is live (an
  // 'if codegen' line by its brace).
  llvm::DenseSet<unsigned> Live = D.Expanded->liveLines();
  json::Array Out;
  std::optional<unsigned> First, Last;
  auto Flush = [&] {
    if (!First)
      return;
    unsigned End = D.Text->offset({*Last, 0}, PositionEncoding::UTF8) +
                   D.Text->line(*Last).size();
    Out.push_back(range({*First, 0}, D.Text->position(End, Encoding)));
    First.reset();
  };
  for (unsigned L : Lines) {
    if (Live.contains(L))
      continue;
    if (First && *Last + 1 != L)
      Flush();
    if (!First)
      First = L;
    Last = L;
  }
  Flush();
  return Out;
}

std::optional<Mapper::UserRange>
Mapper::rangeToUser(const Document &D, const json::Object &R) const {
  if (!D.Expanded)
    return std::nullopt;
  return rangeToUser(
      D.Expanded->body(),
      [&](unsigned Offset) { return D.Expanded->toUser(Offset); }, R);
}

std::optional<Mapper::UserRange> Mapper::rangeToUser(
    const TextLines &Body,
    llvm::function_ref<std::optional<UserPlace>(unsigned)> ToUser,
    const json::Object &R) const {
  auto S = readPosition(R.get("start")), E = readPosition(R.get("end"));
  if (!S || !E)
    return std::nullopt;
  unsigned Begin = Body.offset(*S, Encoding), End = Body.offset(*E, Encoding);
  auto From = ToUser(Begin);
  if (!From)
    return std::nullopt;
  const TextLines *Text = userText(From->Path);
  if (!Text)
    return std::nullopt;
  UserRange Out{From->Path, {}};
  std::optional<UserPlace> To;
  if (End > Begin)
    To = ToUser(End - 1);
  bool Ordered = To && To->Path == From->Path &&
                 (To->Line > From->Line ||
                  (To->Line == From->Line && To->Col >= From->Col));
  if (!From->Verbatim || !Ordered) {
    Out.Range = tokenRange(*Text, From->Line, From->Col);
    return Out;
  }
  auto At = [&](unsigned Line, unsigned Col) {
    return Text->position(Text->offset({Line, 0}, PositionEncoding::UTF8) + Col,
                          Encoding);
  };
  LspPosition Last = At(To->Line, To->Col);
  if (To->Verbatim)
    Last = At(To->Line, To->Col + 1);
  else
    Last = readPosition(tokenRange(*Text, To->Line, To->Col).get("end"))
               .value_or(Last);
  Out.Range = range(At(From->Line, From->Col), Last);
  return Out;
}

bool Mapper::mapValue(const Document *D, json::Value &V) const {
  if (json::Array *A = V.getAsArray()) {
    json::Array Kept;
    for (json::Value &E : *A)
      if (mapValue(D, E))
        Kept.push_back(std::move(E));
    removeDuplicates(Kept);
    *A = std::move(Kept);
    return true;
  }
  json::Object *O = V.getAsObject();
  if (!O)
    return true;
  // A Location or a LocationLink names its document.
  for (auto [UriKey, Ranges] :
       {std::pair<llvm::StringRef, std::vector<llvm::StringRef>>{"uri",
                                                                 {"range"}},
        {"targetUri", {"targetRange", "targetSelectionRange"}}}) {
    auto Uri = O->getString(UriKey);
    if (!Uri)
      continue;
    const Document *Target = Find(*Uri);
    if (Target && (!Target->Dialect || !Target->Expanded))
      Target = nullptr;
    // A file of spliced text stands for the dialect headers it copies.
    const SplicedFile *Spliced = Target ? nullptr : FindSpliced(*Uri);
    if (!Target && !Spliced)
      continue;
    std::optional<std::string> NewUri;
    for (llvm::StringRef Key : Ranges) {
      json::Object *R = O->getObject(Key);
      if (!R)
        continue;
      auto U =
          Target ? rangeToUser(*Target, *R)
                 : rangeToUser(
                       Spliced->Text,
                       [&](unsigned Offset) { return Spliced->toUser(Offset); },
                       *R);
      if (!U)
        return false;
      *R = std::move(U->Range);
      NewUri = pathToUri(U->Path);
    }
    if (NewUri)
      (*O)[UriKey] = *NewUri;
  }
  bool OwnsUri = O->getString("uri") || O->getString("targetUri");
  // Ranges without a document are the requested document's.
  if (D && D->Dialect && D->Expanded) {
    if (O->get("start") && O->get("end") && !OwnsUri) {
      auto U = rangeToUser(*D, *O);
      if (!U || U->Path != D->Path)
        return false;
      *O = std::move(U->Range);
      return true;
    }
    for (llvm::StringRef Key :
         {"range", "selectionRange", "originSelectionRange"}) {
      if (OwnsUri && Key == "range")
        continue;
      json::Object *R = O->getObject(Key);
      if (!R)
        continue;
      auto U = rangeToUser(*D, *R);
      if (!U || U->Path != D->Path)
        return false;
      *R = std::move(U->Range);
    }
    // An inlay hint's place: only where the user's byte was copied.
    if (json::Value *Pos = O->get("position")) {
      auto P = readPosition(Pos);
      if (!P)
        return false;
      const TextLines &Body = D->Expanded->body();
      unsigned Offset = Body.offset(*P, Encoding);
      auto U = D->Expanded->toUser(Offset);
      if (!U || !U->Verbatim || U->Path != D->Path ||
          !D->Expanded->live(Offset))
        return false;
      *Pos = position(D->Text->position(
          D->Text->offset({U->Line, 0}, PositionEncoding::UTF8) + U->Col,
          Encoding));
    }
    // A symbol's name must lie in its whole.
    if (json::Object *R = O->getObject("range"))
      if (json::Object *S = O->getObject("selectionRange")) {
        auto RS = readPosition(R->get("start")),
             RE = readPosition(R->get("end"));
        auto SS = readPosition(S->get("start")),
             SE = readPosition(S->get("end"));
        auto Less = [](LspPosition A, LspPosition B) {
          return std::tie(A.Line, A.Character) < std::tie(B.Line, B.Character);
        };
        if (RS && RE && SS && SE) {
          if (Less(*SS, *RS))
            (*R)["start"] = position(*SS);
          if (Less(*RE, *SE))
            (*R)["end"] = position(*SE);
        }
      }
  }
  for (auto &KV : *O) {
    llvm::StringRef Key = KV.first;
    if (Key == "range" || Key == "selectionRange" ||
        Key == "originSelectionRange" || Key == "targetRange" ||
        Key == "targetSelectionRange")
      continue;
    if ((KV.second.getAsArray() || KV.second.getAsObject()) &&
        !mapValue(D, KV.second))
      KV.second = nullptr;
  }
  return true;
}

void Mapper::mapSemanticTokens(const Document &D, json::Object &Result) const {
  json::Array *Data = Result.getArray("data");
  if (!Data || !D.Expanded)
    return;
  const TextLines &Body = D.Expanded->body();
  struct Tok {
    unsigned Line, Char, Length;
    int64_t Type, Mods;
  };
  std::vector<Tok> Out;
  unsigned Line = 0, Char = 0;
  for (size_t I = 0; I + 5 <= Data->size(); I += 5) {
    int64_t F[5];
    for (int K = 0; K < 5; ++K)
      F[K] = (*Data)[I + K].getAsInteger().value_or(0);
    Char = F[0] ? unsigned(F[1]) : Char + unsigned(F[1]);
    Line += unsigned(F[0]);
    unsigned Begin = Body.offset({Line, Char}, Encoding);
    unsigned End = Body.offset({Line, Char + unsigned(F[2])}, Encoding);
    if (End <= Begin || !D.Expanded->live(Begin))
      continue;
    auto From = D.Expanded->toUser(Begin), To = D.Expanded->toUser(End - 1);
    if (!From || !To || !From->Verbatim || !To->Verbatim ||
        From->Path != D.Path || To->Path != D.Path || To->Line != From->Line ||
        To->Col - From->Col != End - 1 - Begin)
      continue;
    unsigned Start = D.Text->offset({From->Line, 0}, PositionEncoding::UTF8);
    LspPosition S = D.Text->position(Start + From->Col, Encoding);
    LspPosition E = D.Text->position(Start + To->Col + 1, Encoding);
    Out.push_back({S.Line, S.Character, E.Character - S.Character, F[3], F[4]});
  }
  llvm::sort(Out, [](const Tok &A, const Tok &B) {
    return std::tie(A.Line, A.Char) < std::tie(B.Line, B.Char);
  });
  json::Array Encoded;
  unsigned PrevLine = 0, PrevChar = 0;
  bool First = true;
  for (const Tok &T : Out) {
    // Copies of one token, and tokens a copy overlaps, are given once.
    if (!First && T.Line == PrevLine && T.Char == PrevChar)
      continue;
    Encoded.push_back(T.Line - PrevLine);
    Encoded.push_back(T.Line == PrevLine && !First ? T.Char - PrevChar
                                                   : T.Char);
    Encoded.push_back(T.Length);
    Encoded.push_back(T.Type);
    Encoded.push_back(T.Mods);
    PrevLine = T.Line;
    PrevChar = T.Char;
    First = false;
  }
  *Data = std::move(Encoded);
}

void Mapper::resultToUser(llvm::StringRef Method, const Document *D,
                          json::Value &Result) const {
  bool Dialect = D && D->Dialect && D->Expanded;
  if (Dialect && Method.starts_with("textDocument/semanticTokens")) {
    if (json::Object *O = Result.getAsObject())
      mapSemanticTokens(*D, *O);
    return;
  }
  if (Dialect && Method == "textDocument/foldingRange") {
    json::Array *A = Result.getAsArray();
    if (!A)
      return;
    json::Array Kept;
    auto UserLine = [&](int64_t BodyLine) { return userLine(*D, BodyLine); };
    for (json::Value &V : *A) {
      json::Object *O = V.getAsObject();
      if (!O)
        continue;
      auto S = O->getInteger("startLine"), E = O->getInteger("endLine");
      auto US = S ? UserLine(*S) : std::nullopt;
      auto UE = E ? UserLine(*E) : std::nullopt;
      if (!US || !UE || *UE <= *US)
        continue;
      json::Object F{{"startLine", *US}, {"endLine", *UE}};
      if (auto K = O->getString("kind"))
        F["kind"] = K->str();
      Kept.push_back(std::move(F));
    }
    removeDuplicates(Kept);
    *A = std::move(Kept);
    return;
  }
  if (Dialect && Method == "textDocument/completion") {
    json::Object *O = Result.getAsObject();
    json::Array *Items = O ? O->getArray("items") : Result.getAsArray();
    if (!Items)
      return;
    for (json::Value &V : *Items) {
      json::Object *Item = V.getAsObject();
      if (!Item)
        continue;
      if (json::Value *Edit = Item->get("textEdit")) {
        // The edit replaces the word typed so far; where it does not map,
        // the editor inserts the item's text at the cursor.
        json::Value Copy = *Edit;
        if (mapValue(D, Copy) && Copy.getAsObject() &&
            (Copy.getAsObject()->get("range") ||
             Copy.getAsObject()->get("insert"))) {
          *Edit = std::move(Copy);
        } else {
          if (auto T = Edit->getAsObject()->getString("newText"))
            (*Item)["insertText"] = T->str();
          Item->erase("textEdit");
        }
      }
      if (json::Value *More = Item->get("additionalTextEdits"))
        mapValue(D, *More);
    }
    return;
  }
  if (Method == "textDocument/rename")
    if (json::Object *Edit = Result.getAsObject()) {
      dropDialectEdits(*Edit);
      return;
    }
  if (!mapValue(D, Result))
    Result = nullptr;
}

void Mapper::dropDialectEdits(json::Object &Edit) const {
  auto IsDialect = [&](llvm::StringRef Uri) {
    const Document *T = Find(Uri);
    return (T && T->Dialect) || FindSpliced(Uri);
  };
  if (json::Object *Changes = Edit.getObject("changes")) {
    std::vector<std::string> Drop;
    for (auto &KV : *Changes)
      if (IsDialect(KV.first))
        Drop.push_back(KV.first.str());
    for (const std::string &U : Drop)
      Changes->erase(U);
  }
  if (json::Array *Changes = Edit.getArray("documentChanges")) {
    json::Array Kept;
    for (json::Value &C : *Changes) {
      const json::Object *O = C.getAsObject();
      const json::Object *TD = O ? O->getObject("textDocument") : nullptr;
      auto Uri = TD ? TD->getString("uri") : std::nullopt;
      if (!Uri || !IsDialect(*Uri))
        Kept.push_back(std::move(C));
    }
    *Changes = std::move(Kept);
  }
}

json::Array Mapper::diagnosticsToUser(const Document &D,
                                      const json::Array &Diags) const {
  json::Array Out;
  for (const json::Value &V : Diags) {
    const json::Object *Diag = V.getAsObject();
    const json::Object *R = Diag ? Diag->getObject("range") : nullptr;
    if (!R)
      continue;
    // Headers that only meta code uses look unused in the expansion.
    if (Diag->getString("code") == "unused-includes")
      continue;
    auto U = rangeToUser(D, *R);
    if (!U || U->Path != D.Path)
      continue;
    json::Object Mapped = *Diag;
    Mapped["range"] = std::move(U->Range);
    // Fixes edit the expansion, not the user's text.
    Mapped.erase("codeActions");
    if (json::Value *Related = Mapped.get("relatedInformation"))
      mapValue(&D, *Related);
    Out.push_back(std::move(Mapped));
  }
  removeDuplicates(Out);
  return Out;
}

} // namespace metacu
