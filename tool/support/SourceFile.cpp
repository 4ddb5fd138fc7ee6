//===- SourceFile.cpp -----------------------------------------------------===//
#include "support/SourceFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <iterator>

namespace metacu {

unsigned lineBreakAt(llvm::StringRef Text, size_t Offset) {
  if (Offset >= Text.size())
    return 0;
  if (Text[Offset] == '\n')
    return 1;
  if (Text[Offset] != '\r')
    return 0;
  return Offset + 1 < Text.size() && Text[Offset + 1] == '\n' ? 2 : 1;
}

UnifiedText::UnifiedText(llvm::StringRef Raw) {
  size_t I = 0;
  if (Raw.starts_with("\xEF\xBB\xBF")) {
    Dropped = {0, 1, 2};
    I = 3;
  }
  Text.reserve(Raw.size());
  for (size_t E = Raw.size(); I < E; ++I) {
    if (Raw[I] != '\r') {
      Text += Raw[I];
      continue;
    }
    if (lineBreakAt(Raw, I) == 2)
      Dropped.push_back(I);
    else
      Text += '\n';
    Changed = true;
  }
  Changed |= !Dropped.empty();
}

unsigned UnifiedText::offset(unsigned RawOffset) const {
  return RawOffset -
         (std::lower_bound(Dropped.begin(), Dropped.end(), RawOffset) -
          Dropped.begin());
}

SourceFile::SourceFile(std::string P, std::string T)
    : Path(std::move(P)), Text(std::move(T)) {
  LineStarts.push_back(0);
  for (unsigned I = 0, E = Text.size(); I != E; ++I)
    if (unsigned N = lineBreakAt(Text, I)) {
      I += N - 1;
      LineStarts.push_back(I + 1);
    }
}

bool isSpecialFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  return !llvm::sys::fs::status(Path, St) &&
         !llvm::sys::fs::is_regular_file(St);
}

llvm::Expected<SourceFile> SourceFile::load(llvm::StringRef Path) {
  if (isSpecialFile(Path))
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "cannot read '%s': not a regular file", Path.str().c_str());
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buf.getError().message().c_str());
  return SourceFile(Path.str(), (*Buf)->getBuffer().str());
}

LineCol SourceFile::lineCol(unsigned Offset) const {
  Offset = std::min<unsigned>(Offset, Text.size());
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  unsigned Line = It - LineStarts.begin();
  return {Line, Offset - LineStarts[Line - 1] + 1};
}

unsigned SourceFile::lineStart(unsigned Offset) const {
  return LineStarts[lineCol(Offset).Line - 1];
}

unsigned SourceFile::offsetOfLine(unsigned Line) const {
  if (Line == 0)
    return 0;
  if (Line > LineStarts.size())
    return Text.size();
  return LineStarts[Line - 1];
}

unsigned SourceFile::lineEnd(unsigned Offset) const {
  unsigned Line = lineCol(Offset).Line;
  if (Line == LineStarts.size())
    return Text.size();
  unsigned End = LineStarts[Line] - 1;
  // CRLF: the break starts at its CR.
  return End > LineStarts[Line - 1] && Text[End - 1] == '\r' &&
                 Text[End] == '\n'
             ? End - 1
             : End;
}

llvm::StringRef SourceFile::lineText(unsigned Offset) const {
  unsigned Begin = lineStart(Offset);
  return llvm::StringRef(Text).slice(Begin, lineEnd(Offset));
}

void SourceFile::markOrigin(unsigned Offset, std::string P, unsigned Line,
                            bool Library, std::string LinePath,
                            unsigned IncludedAt) {
  if (LinePath.empty())
    LinePath = P;
  Marks.push_back(
      {Offset, std::move(P), Line, Library, std::move(LinePath), IncludedAt});
}

SourceFile SourceFile::withText(std::string NewText) const {
  SourceFile Out(Path, std::move(NewText));
  for (const Mark &M : Marks)
    Out.Marks.push_back({Out.offsetOfLine(line(M.Offset)), M.Path, M.Line,
                         M.Library, M.LinePath, M.IncludedAt});
  return Out;
}

Origin SourceFile::origin(unsigned Offset) const {
  LineCol Here = lineCol(Offset);
  // The last mark at or before the offset; of equal offsets (an empty file
  // spliced in) the later one.
  auto It =
      std::upper_bound(Marks.begin(), Marks.end(), Offset,
                       [](unsigned O, const Mark &M) { return O < M.Offset; });
  Origin O{Path, Path, Here};
  if (It != Marks.begin()) {
    const Mark &M = *std::prev(It);
    O = {M.Path,
         M.LinePath,
         {M.Line + Here.Line - lineCol(M.Offset).Line, Here.Col},
         M.Library,
         M.IncludedAt};
  }
  return O;
}

} // namespace metacu
