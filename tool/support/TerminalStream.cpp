//===- TerminalStream.cpp -------------------------------------------------===//
#include "TerminalStream.h"

#include "llvm/Support/Format.h"

using namespace metacu;

TerminalStream::~TerminalStream() {
  flush();
  if (PendingC2)
    To << '\xC2';
}

void TerminalStream::write_impl(const char *Ptr, size_t Size) {
  Written += Size;
  for (size_t I = 0; I < Size; ++I) {
    auto C = static_cast<unsigned char>(Ptr[I]);
    if (PendingC2) {
      PendingC2 = false;
      if (C >= 0x80 && C <= 0x9F) {
        To << llvm::format("\\u%04x", C);
        continue;
      }
      To << '\xC2';
    }
    if (C == 0xC2)
      PendingC2 = true;
    else if ((C < 0x20 && C != '\n' && C != '\t') || C == 0x7F)
      To << llvm::format("\\x%02x", C);
    else
      To << char(C);
  }
}
