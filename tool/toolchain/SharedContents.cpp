//===- SharedContents.cpp -------------------------------------------------===//
#include "toolchain/SharedContents.h"

namespace metacu {

namespace {

/// A file whose text is kept for the run.
class KeptFile : public llvm::vfs::File {
public:
  KeptFile(llvm::vfs::Status Status, llvm::MemoryBufferRef Text)
      : Status(std::move(Status)), Text(Text) {}

  llvm::ErrorOr<llvm::vfs::Status> status() override { return Status; }

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &Name, int64_t, bool RequiresNullTerminator,
            bool) override {
    return llvm::MemoryBuffer::getMemBuffer(Text.getBuffer(), Name.str(),
                                            RequiresNullTerminator);
  }

  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status Status;
  llvm::MemoryBufferRef Text;
};

class SharedContentsFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  SharedContentsFileSystem(SharedContents &Contents,
                           std::function<bool(llvm::StringRef)> Kept)
      : ProxyFileSystem(llvm::vfs::getRealFileSystem()), Contents(Contents),
        Kept(std::move(Kept)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    llvm::SmallString<256> Name;
    llvm::StringRef P = Path.toStringRef(Name);
    llvm::ErrorOr<llvm::vfs::Status> Status = status(P);
    if (!Status || !Status->isRegularFile() || !kept(*Status))
      return ProxyFileSystem::openFileForRead(P);
    llvm::ErrorOr<llvm::MemoryBufferRef> Text =
        Contents.read(getUnderlyingFS(), *Status);
    if (!Text)
      return Text.getError();
    return std::make_unique<KeptFile>(std::move(*Status), *Text);
  }

private:
  /// Kept's answer, asked once per file.
  bool kept(const llvm::vfs::Status &Status) {
    auto [It, New] = Known.try_emplace(Status.getUniqueID());
    if (New)
      It->second = Kept(Status.getName());
    return It->second;
  }

  SharedContents &Contents;
  std::function<bool(llvm::StringRef)> Kept;
  std::map<llvm::sys::fs::UniqueID, bool> Known;
};

} // namespace

llvm::ErrorOr<llvm::MemoryBufferRef>
SharedContents::read(llvm::vfs::FileSystem &FS,
                     const llvm::vfs::Status &Status) {
  Key K{Status.getUniqueID(), Status.getSize(),
        Status.getLastModificationTime().time_since_epoch().count()};
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (auto It = Texts.find(K); It != Texts.end())
      return It->second->getMemBufferRef();
  }
  // Read outside the lock: two threads may read one file, and the first
  // text stays.
  auto Buf = FS.getBufferForFile(Status.getName(), -1,
                                 /*RequiresNullTerminator=*/true);
  if (!Buf)
    return Buf.getError();
  std::lock_guard<std::mutex> Guard(Lock);
  auto &Slot = Texts[K];
  if (!Slot)
    Slot = std::move(*Buf);
  return Slot->getMemBufferRef();
}

SharedContents &SharedContents::shared() {
  static SharedContents Contents;
  return Contents;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
sharedContentsFileSystem(SharedContents &Contents,
                         std::function<bool(llvm::StringRef)> Kept) {
  return llvm::makeIntrusiveRefCnt<SharedContentsFileSystem>(Contents,
                                                             std::move(Kept));
}

} // namespace metacu
