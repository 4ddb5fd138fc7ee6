//===- SourceFile.cpp -----------------------------------------------------===//
#include "support/SourceFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <iterator>

namespace metacu {

SourceFile::SourceFile(std::string P, std::string T)
    : Path(std::move(P)), Text(std::move(T)) {
  LineStarts.push_back(0);
  for (unsigned I = 0, E = Text.size(); I != E; ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
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

llvm::StringRef SourceFile::lineText(unsigned Offset) const {
  unsigned Begin = lineStart(Offset);
  size_t End = Text.find('\n', Begin);
  if (End == std::string::npos)
    End = Text.size();
  llvm::StringRef L(Text.data() + Begin, End - Begin);
  return L.rtrim('\r');
}

void SourceFile::markOrigin(unsigned Offset, std::string P, unsigned Line,
                            bool Library, std::string LinePath) {
  if (LinePath.empty())
    LinePath = P;
  Marks.push_back({Offset, std::move(P), Line, Library, std::move(LinePath)});
}

Origin SourceFile::origin(unsigned Offset) const {
  LineCol Here = lineCol(Offset);
  // The last mark at or before the offset; of equal offsets (an empty file
  // spliced in) the later one.
  auto It =
      std::upper_bound(Marks.begin(), Marks.end(), Offset,
                       [](unsigned O, const Mark &M) { return O < M.Offset; });
  if (It == Marks.begin())
    return {Path, Path, Here};
  const Mark &M = *std::prev(It);
  return {M.Path,
          M.LinePath,
          {M.Line + Here.Line - lineCol(M.Offset).Line, Here.Col},
          M.Library};
}

} // namespace metacu
