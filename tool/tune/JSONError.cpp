//===- JSONError.cpp - Errors in JSON files, with where they are ----------===//
#include "JSONError.h"

#include "support/SourceFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace metacu::tune;

llvm::Error metacu::tune::locatedParseError(llvm::StringRef FileName,
                                            llvm::Error E, unsigned FirstLine,
                                            unsigned FirstColumn) {
  std::string Message = llvm::toString(std::move(E));
  // llvm::json::ParseError logs "[LINE:COL, byte=OFFSET]: MESSAGE" and
  // keeps the numbers private.
  unsigned Line = 0, Col = 0, Offset = 0;
  int Consumed = 0;
  if (std::sscanf(Message.c_str(), "[%u:%u, byte=%u]: %n", &Line, &Col, &Offset,
                  &Consumed) == 3 &&
      Consumed > 0) {
    // Columns count from 1; llvm::json says 0 at a line's end of file.
    Col = std::max(Col, 1u);
    if (Line == 1)
      Col += FirstColumn - 1;
    return llvm::createStringError(
        FileName + ":" + llvm::Twine(Line + FirstLine - 1) + ":" +
        llvm::Twine(Col) + ": " + Message.substr(Consumed));
  }
  return llvm::createStringError(FileName + ": " + Message);
}

llvm::Expected<std::string> metacu::tune::readInputFile(llvm::StringRef Path) {
  if (isSpecialFile(Path))
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "cannot read " + Path + ": not a regular file");
  uint64_t Size = 0;
  if (!llvm::sys::fs::file_size(Path, Size) && Size > MaxInputBytes)
    return llvm::createStringError(
        std::make_error_code(std::errc::file_too_large),
        llvm::formatv("cannot read {0}: {1} MiB, more than the {2} MiB "
                      "metacu reads",
                      Path, Size >> 20, MaxInputBytes >> 20));
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read " + Path + ": " +
                                       Buffer.getError().message());
  return (*Buffer)->getBuffer().str();
}

/// Calls \p Visit(I, Line, LineStart) for each character of \p Text outside
/// string literals, line breaks aside, with its line (\p FirstLine for the
/// first) and where that line starts. Visit returns the last index it read
/// (I for the one character), or npos to stop: the one scan of the text that
/// the checks below share.
template <class Fn>
static void forEachOutsideStrings(llvm::StringRef Text, unsigned FirstLine,
                                  Fn Visit) {
  unsigned Line = FirstLine;
  size_t LineStart = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      ++Line;
      LineStart = I + 1;
    } else if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if ((I = Visit(I, Line, LineStart)) == llvm::StringRef::npos) {
      return;
    }
  }
}

/// The number literal that starts at \p I.
static llvm::StringRef numberAt(llvm::StringRef Text, size_t I) {
  return Text.slice(I, Text.find_first_of(",]} \t\r\n", I));
}

static bool startsNumber(char C) { return C == '-' || llvm::isDigit(C); }

llvm::Error metacu::tune::checkJSONNesting(llvm::StringRef Text,
                                           llvm::StringRef FileName,
                                           unsigned FirstLine) {
  unsigned Depth = 0;
  llvm::Error Result = llvm::Error::success();
  forEachOutsideStrings(
      Text, FirstLine, [&](size_t I, unsigned Line, size_t LineStart) {
        char C = Text[I];
        if (C == '[' || C == '{') {
          if (++Depth > MaxJSONNesting) {
            Result = llvm::createStringError(
                llvm::formatv(
                    "{0}:{1}:{2}: arrays and objects nested more than "
                    "{3} deep",
                    FileName, Line, I - LineStart + 1, MaxJSONNesting)
                    .str());
            return llvm::StringRef::npos;
          }
        } else if ((C == ']' || C == '}') && Depth) {
          --Depth;
        }
        return I;
      });
  return Result;
}

/// The path of the first number in \p V that is not finite.
static std::optional<std::string> nonFinite(const llvm::json::Value &V,
                                            const std::string &Path) {
  if (auto D = V.getAsNumber(); D && !std::isfinite(*D))
    return Path;
  if (const llvm::json::Object *O = V.getAsObject())
    for (const auto &KV : *O)
      if (auto P =
              nonFinite(KV.second, Path.empty() ? KV.first.str()
                                                : Path + "." + KV.first.str()))
        return P;
  if (const llvm::json::Array *A = V.getAsArray())
    for (size_t I = 0; I < A->size(); ++I)
      if (auto P = nonFinite((*A)[I], Path + "[" + std::to_string(I) + "]"))
        return P;
  return std::nullopt;
}

llvm::Error metacu::tune::checkDuplicateKeys(llvm::StringRef Text,
                                             llvm::StringRef FileName,
                                             unsigned FirstLine,
                                             unsigned FirstColumn) {
  // The keys of each object open at this point; an array is a frame with
  // no keys.
  struct Frame {
    bool Object;
    llvm::StringSet<> Keys;
    bool KeyNext = false;
  };
  std::vector<Frame> Open;
  unsigned Line = FirstLine;
  size_t LineStart = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      ++Line;
      LineStart = I + 1;
    } else if (C == '{' || C == '[') {
      Open.push_back({C == '{', {}, C == '{'});
    } else if ((C == '}' || C == ']') && !Open.empty()) {
      Open.pop_back();
    } else if (C == ',' && !Open.empty()) {
      Open.back().KeyNext = Open.back().Object;
    } else if (C == '"') {
      size_t Begin = I;
      bool Escaped = false;
      for (++I; I < Text.size() && Text[I] != '"'; ++I)
        if (Text[I] == '\\') {
          Escaped = true;
          ++I;
        }
      if (Open.empty() || !Open.back().KeyNext)
        continue;
      Open.back().KeyNext = false;
      llvm::StringRef Spelled = Text.slice(Begin, I + 1);
      std::string Key = Spelled.drop_front().drop_back().str();
      // "\u0061" is the key "a": compare what the parser reads.
      if (Escaped) {
        auto V = llvm::json::parse(Spelled);
        Key = V ? V->getAsString()->str() : Key;
        if (!V)
          llvm::consumeError(V.takeError());
      }
      if (!Open.back().Keys.insert(Key).second) {
        unsigned Col = Begin - LineStart + 1;
        if (Line == FirstLine)
          Col += FirstColumn - 1;
        return llvm::createStringError(llvm::formatv(
            "{0}:{1}:{2}: \"{3}\" given twice", FileName, Line, Col, Key));
      }
    }
  }
  return llvm::Error::success();
}

llvm::Error metacu::tune::checkIntegerRange(llvm::StringRef Text,
                                            llvm::StringRef FileName,
                                            unsigned FirstLine,
                                            unsigned FirstColumn) {
  llvm::Error Result = llvm::Error::success();
  forEachOutsideStrings(
      Text, FirstLine, [&](size_t I, unsigned Line, size_t LineStart) {
        if (!startsNumber(Text[I]))
          return I;
        llvm::StringRef Number = numberAt(Text, I);
        int64_t Signed;
        uint64_t Unsigned;
        if (Number.find_first_of(".eE") == llvm::StringRef::npos &&
            Number.getAsInteger(10, Signed) &&
            Number.getAsInteger(10, Unsigned)) {
          unsigned Col = I - LineStart + 1;
          if (Line == FirstLine)
            Col += FirstColumn - 1;
          Result = llvm::createStringError(
              llvm::formatv("{0}:{1}:{2}: {3}: an integer no 64-bit integer "
                            "holds (read, it would be rounded)",
                            FileName, Line, Col, Number)
                  .str());
          return llvm::StringRef::npos;
        }
        return I + Number.size() - 1;
      });
  return Result;
}

llvm::Expected<llvm::json::Value>
metacu::tune::parseJSON(llvm::StringRef Text, llvm::StringRef FileName,
                        unsigned FirstLine, unsigned FirstColumn,
                        llvm::StringRef PathPrefix) {
  if (llvm::Error E = checkJSONNesting(Text, FileName, FirstLine))
    return std::move(E);
  auto V = llvm::json::parse(Text);
  if (!V)
    return locatedParseError(FileName, V.takeError(), FirstLine, FirstColumn);
  if (llvm::Error E =
          checkDuplicateKeys(Text, FileName, FirstLine, FirstColumn))
    return std::move(E);
  if (llvm::Error E = checkNumbersFinite(*V, Text, FileName, FirstLine,
                                         FirstColumn, PathPrefix))
    return std::move(E);
  if (llvm::Error E = checkIntegerRange(Text, FileName, FirstLine, FirstColumn))
    return std::move(E);
  return V;
}

llvm::Error metacu::tune::checkNumbersFinite(
    const llvm::json::Value &V, llvm::StringRef Text, llvm::StringRef FileName,
    unsigned FirstLine, unsigned FirstColumn, llvm::StringRef PathPrefix) {
  auto Path = nonFinite(V, "");
  if (!Path)
    return llvm::Error::success();
  auto [Line, Col] = locateJSONValue(Text, *Path, FirstLine, FirstColumn);
  std::string Named = PathPrefix.str();
  if (!Path->empty())
    Named += Named.empty() || Path->front() == '[' ? *Path : "." + *Path;
  return llvm::createStringError(
      llvm::formatv("{0}:{1}:{2}: {3}: a number too large for a double",
                    FileName, Line, Col, Named.empty() ? "the value" : Named)
          .str());
}

bool metacu::tune::isTornRecord(llvm::StringRef Text) {
  if (llvm::Error E = checkJSONNesting(Text, "")) {
    llvm::consumeError(std::move(E));
    return false;
  }
  auto V = llvm::json::parse(Text);
  if (V)
    return false;
  llvm::consumeError(V.takeError());
  return true;
}

namespace {
/// One pass over a JSON text that parsed, each value's path spelled as
/// llvm::json::Path prints it, to find where the value at one path starts.
class ValueFinder {
public:
  ValueFinder(llvm::StringRef Text, llvm::StringRef Want)
      : Text(Text), Want(Want) {}

  /// The offset of the value at Want, or of its nearest enclosing value.
  size_t find() {
    value("");
    return Found;
  }

private:
  llvm::StringRef Text, Want;
  size_t Pos = 0, Found = 0;
  bool Done = false;

  void skipSpace() {
    while (Pos < Text.size() && llvm::StringRef(" \t\r\n").contains(Text[Pos]))
      ++Pos;
  }
  /// The string literal at Pos, decoded (escapes read as llvm::json reads
  /// them, since the path spells the key it read), Pos moved past it.
  std::string string() {
    size_t Start = Pos++;
    while (Pos < Text.size() && Text[Pos] != '"')
      Pos += Text[Pos] == '\\' ? 2 : 1;
    ++Pos;
    auto V = llvm::json::parse(Text.slice(Start, Pos));
    if (!V) {
      llvm::consumeError(V.takeError());
      return "";
    }
    return V->getAsString().value_or("").str();
  }
  /// Whether Path is Want or encloses it.
  bool leadsToWant(llvm::StringRef Path) const {
    if (!Want.starts_with(Path))
      return false;
    llvm::StringRef Rest = Want.drop_front(Path.size());
    return Path.empty() || Rest.empty() || Rest[0] == '.' || Rest[0] == '[';
  }
  void value(const std::string &Path) {
    skipSpace();
    bool OnTheWay = leadsToWant(Path);
    if (OnTheWay)
      Found = Pos;
    if (Path == Want)
      Done = true;
    if (Done || Pos >= Text.size())
      return;
    char C = Text[Pos];
    if (C == '{' || C == '[') {
      ++Pos;
      for (size_t Index = 0;; ++Index) {
        skipSpace();
        if (Pos >= Text.size() || Text[Pos] == '}' || Text[Pos] == ']') {
          ++Pos;
          return;
        }
        std::string Inner = Path + "[" + std::to_string(Index) + "]";
        if (C == '{') {
          std::string Key = string();
          Inner = Path.empty() ? Key : Path + "." + Key;
          skipSpace();
          ++Pos; // ':'
        }
        value(Inner);
        if (Done)
          return;
        skipSpace();
        if (Pos < Text.size() && Text[Pos] == ',')
          ++Pos;
      }
    }
    if (C == '"') {
      string();
      return;
    }
    while (Pos < Text.size() &&
           !llvm::StringRef(",]} \t\r\n").contains(Text[Pos]))
      ++Pos;
  }
};
} // namespace

std::pair<unsigned, unsigned>
metacu::tune::locateJSONValue(llvm::StringRef Text, llvm::StringRef Path,
                              unsigned FirstLine, unsigned FirstColumn) {
  size_t Offset = ValueFinder(Text, Path).find();
  llvm::StringRef Before = Text.take_front(Offset);
  unsigned Lines = Before.count('\n');
  size_t LineStart = Before.rfind('\n') + 1; // 0 when npos
  unsigned Col = Offset - LineStart + 1 + (Lines ? 0 : FirstColumn - 1);
  return {FirstLine + Lines, Col};
}

/// What JSONInput::fail reports to json::Path, replaced by its message.
static constexpr llvm::StringLiteral DetailMarker = "\x01";

bool JSONInput::fail(llvm::json::Path P, const llvm::Twine &Message) {
  Detail = Message.str();
  P.report(DetailMarker);
  return false;
}

llvm::Error JSONInput::error() const {
  // json::Path::Root says "MESSAGE at (root).field[3]" (or "MESSAGE" with no
  // path), and keeps the path's segments private.
  std::string Said = llvm::toString(Root.getError());
  llvm::StringRef Message = Said, Path;
  size_t At = Message.rfind(" at (root)");
  if (At != llvm::StringRef::npos) {
    Path = Message.drop_front(At + llvm::StringRef(" at (root)").size());
    Path.consume_front(".");
    Message = Message.take_front(At);
  }
  std::string Where = FileName;
  if (!Text.empty()) {
    auto [L, C] = locateJSONValue(Text, Path, Line);
    Where += ":" + std::to_string(L) + ":" + std::to_string(C);
  } else if (Line) {
    Where += ":" + std::to_string(Line);
  }
  if (!Path.empty())
    Where += ": " + Path.str();
  return llvm::createStringError(
      Where + ": " + (Message == DetailMarker ? Detail : Message.str()));
}
