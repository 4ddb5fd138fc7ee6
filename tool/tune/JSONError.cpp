//===- JSONError.cpp - Errors in JSON files, with where they are ----------===//
#include "JSONError.h"

#include <algorithm>
#include <cstdio>

using namespace metacu::tune;

llvm::Error metacu::tune::locatedParseError(llvm::StringRef FileName,
                                            llvm::Error E, unsigned FirstLine) {
  std::string Message = llvm::toString(std::move(E));
  // llvm::json::ParseError logs "[LINE:COL, byte=OFFSET]: MESSAGE" and
  // keeps the numbers private.
  unsigned Line = 0, Col = 0, Offset = 0;
  int Consumed = 0;
  if (std::sscanf(Message.c_str(), "[%u:%u, byte=%u]: %n", &Line, &Col, &Offset,
                  &Consumed) == 3 &&
      Consumed > 0)
    // Columns count from 1; llvm::json says 0 at a line's end of file.
    return llvm::createStringError(
        FileName + ":" + llvm::Twine(Line + FirstLine - 1) + ":" +
        llvm::Twine(std::max(Col, 1u)) + ": " + Message.substr(Consumed));
  return llvm::createStringError(FileName + ": " + Message);
}

void JSONReader::fail(const llvm::Twine &Where, const llvm::Twine &Message) {
  if (!Err)
    Err = error(Where, Message);
}

llvm::Error JSONReader::error(const llvm::Twine &Where,
                              const llvm::Twine &Message) const {
  return llvm::createStringError(FileName + ": " + Where + ": " + Message);
}

const llvm::json::Object *JSONReader::object(const llvm::json::Value *V,
                                             const llvm::Twine &Where) {
  if (!V) {
    fail(Where, "missing");
    return nullptr;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    fail(Where, "expected an object");
  return O;
}

const llvm::json::Array *JSONReader::array(const llvm::json::Value *V,
                                           const llvm::Twine &Where) {
  if (!V) {
    fail(Where, "missing");
    return nullptr;
  }
  const llvm::json::Array *A = V->getAsArray();
  if (!A)
    fail(Where, "expected an array");
  return A;
}
