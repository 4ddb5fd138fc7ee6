//===- JSONStream.cpp - A JSON document read a value at a time ------------===//
#include "JSONStream.h"
#include "Gzip.h"
#include "JSONError.h"

#include "support/SourceFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <zlib.h>

using namespace metacu::tune;

namespace {

/// The bytes of a file or a text as they are stored; inflated by
/// ChunkSource when they are gzip data.
class Stored : public ChunkSource {
public:
  explicit Stored(uint64_t Limit) : Limit(Limit) {}
  ~Stored() override {
    if (Gzip)
      inflateEnd(&Z);
  }

  llvm::Expected<bool> read(std::string &Out) override {
    if (!Started) {
      Started = true;
      auto More = fetch();
      if (!More)
        return More.takeError();
      Gzip = isGzip(Raw.substr(RawPos));
      // 16 + MAX_WBITS: a gzip header and trailer, not a raw zlib stream.
      if (Gzip && inflateInit2(&Z, 16 + MAX_WBITS) != Z_OK) {
        Gzip = false;
        return llvm::createStringError("cannot start decompressing");
      }
    }
    if (!Gzip) {
      if (RawPos == Raw.size()) {
        auto More = fetch();
        if (!More)
          return More.takeError();
        if (!*More)
          return false;
      }
      return give(Out, llvm::StringRef(Raw).drop_front(RawPos),
                  Raw.size() - RawPos);
    }
    return inflateSome(Out);
  }

protected:
  /// Replaces Raw with the next stored bytes; false at the end.
  virtual llvm::Expected<bool> fetchRaw(std::string &Raw) = 0;

private:
  llvm::Expected<bool> fetch() {
    Raw.clear();
    RawPos = 0;
    return fetchRaw(Raw);
  }

  llvm::Expected<bool> give(std::string &Out, llvm::StringRef Bytes,
                            size_t Consumed) {
    Total += Bytes.size();
    if (Total > Limit)
      return llvm::createStringError(
          llvm::formatv("{0} MiB or more, more than the {1} MiB metacu reads",
                        Total >> 20, Limit >> 20)
              .str());
    Out.append(Bytes.data(), Bytes.size());
    RawPos += Consumed;
    return true;
  }

  llvm::Expected<bool> inflateSome(std::string &Out) {
    char Chunk[1 << 16];
    while (true) {
      if (RawPos == Raw.size()) {
        auto More = fetch();
        if (!More)
          return More.takeError();
        if (!*More) {
          if (!InMember)
            return false;
          return llvm::createStringError("truncated gzip data");
        }
      }
      if (!InMember) {
        // Another gzip member follows, as gunzip reads them.
        if (inflateReset(&Z) != Z_OK)
          return llvm::createStringError("corrupt gzip data");
        InMember = true;
      }
      Z.next_in = reinterpret_cast<Bytef *>(Raw.data() + RawPos);
      Z.avail_in = Raw.size() - RawPos;
      Z.next_out = reinterpret_cast<Bytef *>(Chunk);
      Z.avail_out = sizeof(Chunk);
      int Code = inflate(&Z, Z_NO_FLUSH);
      size_t Consumed = Raw.size() - RawPos - Z.avail_in;
      if (Code == Z_STREAM_END)
        InMember = false;
      else if (Code != Z_OK && Code != Z_BUF_ERROR)
        return llvm::createStringError(std::string("corrupt gzip data: ") +
                                       (Z.msg ? Z.msg : zError(Code)));
      size_t Made = sizeof(Chunk) - Z.avail_out;
      if (Made || !InMember)
        return give(Out, llvm::StringRef(Chunk, Made), Consumed);
      RawPos += Consumed;
    }
  }

  uint64_t Limit;
  uint64_t Total = 0;
  bool Started = false, Gzip = false, InMember = true;
  z_stream Z{};
  std::string Raw;
  size_t RawPos = 0;
};

class FileSource : public Stored {
public:
  FileSource(llvm::sys::fs::file_t FD, uint64_t Limit)
      : Stored(Limit), FD(FD) {}
  ~FileSource() override { llvm::sys::fs::closeFile(FD); }

private:
  llvm::Expected<bool> fetchRaw(std::string &Raw) override {
    Raw.resize(1 << 20);
    auto N = llvm::sys::fs::readNativeFile(FD, Raw);
    if (!N)
      return N.takeError();
    Raw.resize(*N);
    return *N != 0;
  }

  llvm::sys::fs::file_t FD;
};

class TextSource : public Stored {
public:
  TextSource(llvm::StringRef Text, uint64_t Limit)
      : Stored(Limit), Text(Text) {}

private:
  llvm::Expected<bool> fetchRaw(std::string &Raw) override {
    if (Done)
      return false;
    Done = true;
    Raw = Text.str();
    return !Raw.empty();
  }

  llvm::StringRef Text;
  bool Done = false;
};

} // namespace

llvm::Expected<std::unique_ptr<ChunkSource>>
ChunkSource::open(llvm::StringRef Path, uint64_t Limit) {
  if (isSpecialFile(Path))
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "cannot read " + Path + ": not a regular file");
  auto FD = llvm::sys::fs::openNativeFileForRead(Path);
  if (!FD) {
    std::error_code EC = llvm::errorToErrorCode(FD.takeError());
    return llvm::createStringError(EC,
                                   "cannot read " + Path + ": " + EC.message());
  }
  return std::make_unique<FileSource>(*FD, Limit);
}

std::unique_ptr<ChunkSource> ChunkSource::ofText(llvm::StringRef Text,
                                                 uint64_t Limit) {
  return std::make_unique<TextSource>(Text, Limit);
}

JSONStream::JSONStream(std::unique_ptr<ChunkSource> Source,
                       std::string FileName)
    : Source(std::move(Source)), FileName(std::move(FileName)) {}

llvm::Error JSONStream::errorAt(unsigned L, unsigned C,
                                const llvm::Twine &Message) const {
  return llvm::createStringError(FileName + ":" + llvm::Twine(L) + ":" +
                                 llvm::Twine(C) + ": " + Message);
}

llvm::Error JSONStream::error(const llvm::Twine &Message) const {
  return errorAt(Line, Column, Message);
}

llvm::Error JSONStream::fill() {
  if (Pos < Buffer.size())
    return llvm::Error::success();
  Buffer.clear();
  Pos = 0;
  while (!AtEnd && Buffer.empty()) {
    auto More = Source->read(Buffer);
    if (!More)
      return llvm::createStringError(FileName + ": " +
                                     llvm::toString(More.takeError()));
    AtEnd = !*More;
  }
  return llvm::Error::success();
}

llvm::Expected<std::optional<char>> JSONStream::peekRaw() {
  if (llvm::Error E = fill())
    return std::move(E);
  if (Pos == Buffer.size())
    return std::nullopt;
  return Buffer[Pos];
}

void JSONStream::take() {
  if (Buffer[Pos++] == '\n') {
    ++Line;
    Column = 1;
  } else {
    ++Column;
  }
}

llvm::Expected<std::optional<char>> JSONStream::peek() {
  while (true) {
    auto C = peekRaw();
    if (!C || !*C)
      return C;
    if (**C != ' ' && **C != '\t' && **C != '\r' && **C != '\n')
      return C;
    take();
  }
}

llvm::Error JSONStream::expect(char C, llvm::StringRef What) {
  auto Got = peek();
  if (!Got)
    return Got.takeError();
  if (*Got != C)
    return error(*Got ? "expected " + What
                      : "unexpected end of file, expected " + What);
  take();
  return llvm::Error::success();
}

llvm::Error JSONStream::capture(std::string &Out, size_t MaxBytes) {
  auto First = peek();
  if (!First)
    return First.takeError();
  if (!*First)
    return error("unexpected end of file, expected a value");
  unsigned Depth = 0;
  bool InString = false;
  // A string, array or object ends at its closing character; a scalar
  // before the first character that cannot continue it.
  while (true) {
    auto C = peekRaw();
    if (!C)
      return C.takeError();
    if (!*C) {
      if (InString || Depth)
        return error("unexpected end of file inside a value");
      return llvm::Error::success();
    }
    char Ch = **C;
    if (!InString && !Depth && !Out.empty() &&
        llvm::StringRef(",:]} \t\r\n").contains(Ch))
      return llvm::Error::success();
    if (Out.size() == MaxBytes)
      return error(llvm::formatv("a value longer than {0} KiB", MaxBytes >> 10)
                       .str());
    Out += Ch;
    take();
    if (InString) {
      if (Ch == '\\') {
        auto Escaped = peekRaw();
        if (!Escaped)
          return Escaped.takeError();
        if (!*Escaped)
          continue;
        Out += **Escaped;
        take();
      } else if (Ch == '"') {
        InString = false;
        if (!Depth)
          return llvm::Error::success();
      }
    } else if (Ch == '"') {
      InString = true;
    } else if (Ch == '[' || Ch == '{') {
      if (++Depth > MaxJSONNesting)
        return errorAt(Line, Column - 1,
                       llvm::formatv("arrays and objects nested more than "
                                     "{0} deep",
                                     MaxJSONNesting)
                           .str());
    } else if ((Ch == ']' || Ch == '}') && Depth) {
      if (!--Depth)
        return llvm::Error::success();
    } else if (Ch == ']' || Ch == '}') {
      return errorAt(Line, Column - 1, "expected a value");
    }
  }
}

llvm::Expected<std::string> JSONStream::string(size_t MaxBytes) {
  auto First = peek();
  if (!First)
    return First.takeError();
  if (*First != '"')
    return error(*First ? "expected a string"
                        : "unexpected end of file, expected a string");
  auto V = value(MaxBytes, "");
  if (!V)
    return V.takeError();
  return V->getAsString()->str();
}

llvm::Expected<llvm::json::Value> JSONStream::value(size_t MaxBytes,
                                                    llvm::StringRef Path) {
  if (auto C = peek(); !C)
    return C.takeError();
  unsigned StartLine = Line, StartColumn = Column;
  std::string Text;
  if (llvm::Error E = capture(Text, MaxBytes))
    return std::move(E);
  return parseJSON(Text, FileName, StartLine, StartColumn, Path);
}

llvm::Error JSONStream::skipValue(size_t MaxBytes) {
  std::string Text;
  return capture(Text, MaxBytes);
}
