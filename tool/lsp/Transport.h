//===- Transport.h - LSP's JSON-RPC framing -------------------------------===//
//
// The Language Server Protocol sends JSON-RPC messages over a byte stream,
// each behind a header: "Content-Length: N\r\n\r\n" and N bytes of JSON.
// The server reads two such streams at once (the editor's and clangd's), so
// the reader takes bytes as they arrive and hands out whole messages.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_TRANSPORT_H
#define METACU_LSP_TRANSPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>

namespace metacu {

class MessageReader {
public:
  /// Appends bytes read from the stream.
  void feed(llvm::StringRef Bytes) { Buffer.append(Bytes); }
  /// The next whole message, if one has arrived; an error for a header
  /// without a length or a body that is no JSON (the message is skipped).
  std::optional<llvm::Expected<llvm::json::Value>> next();

private:
  std::string Buffer;
};

/// \p Message with its header, ready to write.
std::string frameMessage(const llvm::json::Value &Message);

/// Writes all of \p Bytes to \p Fd; false if the stream is closed.
bool writeAll(int Fd, llvm::StringRef Bytes);

} // namespace metacu

#endif
