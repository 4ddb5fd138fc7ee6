//===- Gzip.cpp - Reading and writing files that may be gzip-compressed ---===//
#include "Gzip.h"

#include "JSONError.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <zlib.h>

using namespace metacu::tune;

bool metacu::tune::isGzip(llvm::StringRef Bytes) {
  return Bytes.size() >= 2 && uint8_t(Bytes[0]) == 0x1f &&
         uint8_t(Bytes[1]) == 0x8b;
}

static llvm::Error zlibError(const char *What, int Code, const z_stream &Z) {
  return llvm::createStringError(std::string(What) + ": " +
                                 (Z.msg ? Z.msg : zError(Code)));
}

llvm::Expected<std::string> metacu::tune::gunzip(llvm::StringRef Bytes,
                                                 uint64_t Limit) {
  z_stream Z{};
  // 16 + MAX_WBITS: a gzip header and trailer, not a raw zlib stream.
  if (int Code = inflateInit2(&Z, 16 + MAX_WBITS); Code != Z_OK)
    return zlibError("cannot start decompressing", Code, Z);
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Bytes.data()));
  Z.avail_in = Bytes.size();
  std::string Out;
  char Chunk[1 << 16];
  while (true) {
    Z.next_out = reinterpret_cast<Bytef *>(Chunk);
    Z.avail_out = sizeof(Chunk);
    int Code = inflate(&Z, Z_NO_FLUSH);
    Out.append(Chunk, sizeof(Chunk) - Z.avail_out);
    if (Out.size() > Limit) {
      inflateEnd(&Z);
      return llvm::createStringError(
          llvm::formatv("inflates to more than {0} MiB", Limit >> 20).str());
    }
    if (Code == Z_STREAM_END) {
      if (Z.avail_in == 0)
        break;
      // Another gzip member follows.
      if (int R = inflateReset(&Z); R != Z_OK) {
        inflateEnd(&Z);
        return zlibError("corrupt gzip data", R, Z);
      }
      continue;
    }
    if (Code != Z_OK) {
      llvm::Error E = Code == Z_BUF_ERROR
                          ? llvm::createStringError("truncated gzip data")
                          : zlibError("corrupt gzip data", Code, Z);
      inflateEnd(&Z);
      return std::move(E);
    }
  }
  inflateEnd(&Z);
  return Out;
}

llvm::Expected<std::string> metacu::tune::gzip(llvm::StringRef Text) {
  z_stream Z{};
  if (int Code = deflateInit2(&Z, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
                              16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
      Code != Z_OK)
    return zlibError("cannot start compressing", Code, Z);
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Text.data()));
  Z.avail_in = Text.size();
  std::string Out;
  Out.resize(deflateBound(&Z, Text.size()));
  Z.next_out = reinterpret_cast<Bytef *>(Out.data());
  Z.avail_out = Out.size();
  int Code = deflate(&Z, Z_FINISH);
  if (Code != Z_STREAM_END) {
    llvm::Error E = zlibError("cannot compress", Code, Z);
    deflateEnd(&Z);
    return std::move(E);
  }
  Out.resize(Z.total_out);
  deflateEnd(&Z);
  return Out;
}

llvm::Expected<std::string>
metacu::tune::readMaybeGzipFile(llvm::StringRef Path) {
  auto Bytes = readInputFile(Path);
  if (!Bytes)
    return Bytes.takeError();
  if (!isGzip(*Bytes))
    return Bytes;
  auto Text = gunzip(*Bytes, MaxInputBytes);
  if (!Text)
    return llvm::createStringError(Path + ": " +
                                   llvm::toString(Text.takeError()));
  return Text;
}

llvm::Expected<metacu::OutputFile>
metacu::tune::maybeGzipFile(llvm::StringRef Path, llvm::StringRef Text) {
  if (!Path.ends_with(".gz"))
    return OutputFile{Path.str(), Text.str()};
  auto Z = gzip(Text);
  if (!Z)
    return Z.takeError();
  return OutputFile{Path.str(), std::move(*Z)};
}
