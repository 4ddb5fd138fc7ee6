//===- Transport.cpp ------------------------------------------------------===//
#include "lsp/Transport.h"

#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <unistd.h>

namespace metacu {

std::optional<llvm::Expected<llvm::json::Value>> MessageReader::next() {
  size_t HeaderEnd = Buffer.find("\r\n\r\n");
  if (HeaderEnd == std::string::npos)
    return std::nullopt;
  llvm::StringRef Header(Buffer.data(), HeaderEnd);
  std::optional<size_t> Length;
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Header.split(Lines, "\r\n");
  for (llvm::StringRef Line : Lines) {
    auto [Name, Value] = Line.split(':');
    size_t N;
    if (Name.trim().equals_insensitive("content-length") &&
        !Value.trim().getAsInteger(10, N))
      Length = N;
  }
  if (!Length) {
    Buffer.erase(0, HeaderEnd + 4);
    return llvm::Expected<llvm::json::Value>(llvm::createStringError(
        "a message header without Content-Length: '" + Header.str() + "'"));
  }
  size_t Begin = HeaderEnd + 4;
  if (Buffer.size() - Begin < *Length)
    return std::nullopt;
  auto Parsed =
      llvm::json::parse(llvm::StringRef(Buffer).substr(Begin, *Length));
  Buffer.erase(0, Begin + *Length);
  return std::move(Parsed);
}

std::string frameMessage(const llvm::json::Value &Message) {
  std::string Body;
  llvm::raw_string_ostream(Body) << Message;
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

bool writeAll(int Fd, llvm::StringRef Bytes) {
  while (!Bytes.empty()) {
    ssize_t N = ::write(Fd, Bytes.data(), Bytes.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Bytes = Bytes.drop_front(N);
  }
  return true;
}

} // namespace metacu
