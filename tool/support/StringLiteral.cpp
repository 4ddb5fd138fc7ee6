//===- StringLiteral.cpp - Text written as a C++ string literal -----------===//
#include "support/StringLiteral.h"

#include <cstdio>

namespace metacu {

std::string escapedForStringLiteral(llvm::StringRef S, NonAscii Bytes) {
  std::string Out;
  Out.reserve(S.size());
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      // Three octal digits always: a digit after the escape cannot join it.
      if (C < 0x20 || C == 0x7f || (C >= 0x80 && Bytes == NonAscii::Escape)) {
        char Buf[8];
        snprintf(Buf, sizeof Buf, "\\%03o", C);
        Out += Buf;
      } else {
        Out += char(C);
      }
    }
  }
  return Out;
}

std::string stringLiteral(llvm::StringRef S, NonAscii Bytes) {
  return "\"" + escapedForStringLiteral(S, Bytes) + "\"";
}

} // namespace metacu
