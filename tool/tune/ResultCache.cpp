//===- ResultCache.cpp - Measurements kept across interrupted runs --------===//
#include "ResultCache.h"
#include "JSONError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace metacu::tune;

std::string ResultCache::key(const Target &T,
                             const llvm::json::Object &Config) {
  // llvm::json prints object members sorted by name, so equal
  // configurations print equal whatever order they were built in.
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  OS << llvm::json::Value(T.Arch) << ' ' << llvm::json::Value(T.Device) << ' '
     << llvm::json::Value(llvm::json::Object(Config));
  return Key;
}

static llvm::json::Object toJSON(const Target &T,
                                 const llvm::json::Object &Config,
                                 const Measurement &M) {
  llvm::json::Object O{{"arch", T.Arch},
                       {"device", T.Device},
                       {"config", llvm::json::Object(Config)},
                       {"status", t4Name(M.Status)},
                       {"times", llvm::json::Array(M.Times)},
                       {"compile_ms", M.CompileMs},
                       {"benchmark_ms", M.BenchmarkMs},
                       {"verification_ms", M.VerificationMs},
                       {"framework_ms", M.FrameworkMs},
                       {"timestamp", M.Timestamp}};
  if (M.valid())
    O["objective"] = M.Objective;
  else
    O["reason"] = M.Reason;
  return O;
}

llvm::Error ResultCache::readLine(llvm::StringRef Line, unsigned LineNo) {
  std::string Where = Path + ":" + std::to_string(LineNo);
  auto V = llvm::json::parse(Line);
  if (!V)
    return locatedParseError(Where, V.takeError());
  JSONReader R(Where);
  const llvm::json::Object *O = R.object(*V, "entry");
  const llvm::json::Object *Config =
      O ? R.object(O->get("config"), "config") : nullptr;
  if (!Config)
    return R.takeError();
  Target T;
  auto Arch = O->getString("arch");
  auto Device = O->getString("device");
  auto Status = O->getString("status");
  if (!Arch || !Device || !Status)
    return R.error("entry", "needs 'arch', 'device' and 'status' strings");
  T.Arch = Arch->str();
  T.Device = Device->str();
  Measurement M;
  auto Outcome = validityFromT4Name(*Status);
  if (!Outcome)
    return R.error("status", "unknown status '" + *Status + "'");
  M.Status = *Outcome;
  if (M.valid()) {
    auto Objective = O->getNumber("objective");
    if (!Objective)
      return R.error("objective", "a correct entry needs a number");
    M.Objective = *Objective;
  } else if (auto Reason = O->getString("reason")) {
    M.Reason = Reason->str();
  }
  if (const llvm::json::Array *Times = O->getArray("times"))
    for (const llvm::json::Value &Time : *Times)
      if (auto N = Time.getAsNumber())
        M.Times.push_back(*N);
  M.CompileMs = O->getNumber("compile_ms").value_or(0);
  M.BenchmarkMs = O->getNumber("benchmark_ms").value_or(0);
  M.VerificationMs = O->getNumber("verification_ms").value_or(0);
  M.FrameworkMs = O->getNumber("framework_ms").value_or(0);
  if (auto S = O->getString("timestamp"))
    M.Timestamp = S->str();
  Entries[key(T, *Config)] = std::move(M);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<ResultCache>>
ResultCache::open(llvm::StringRef Path) {
  std::string Text;
  if (llvm::sys::fs::exists(Path)) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(),
                                     "cannot read " + Path + ": " +
                                         Buffer.getError().message());
    Text = (*Buffer)->getBuffer().str();
  }
  // Everything after the last newline is a line whose write was cut short.
  size_t Complete = Text.rfind('\n');
  Complete = Complete == std::string::npos ? 0 : Complete + 1;
  if (Complete < Text.size()) {
    Text.resize(Complete);
    if (llvm::Error Err = llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
          OS << Text;
          return llvm::Error::success();
        }))
      return llvm::createStringError("cannot drop the torn last line of " +
                                     Path + ": " +
                                     llvm::toString(std::move(Err)));
  }

  std::error_code EC;
  auto OS = std::make_unique<llvm::raw_fd_ostream>(Path, EC,
                                                   llvm::sys::fs::OF_Append);
  if (EC)
    return llvm::createStringError(EC,
                                   "cannot open " + Path + ": " + EC.message());
  std::unique_ptr<ResultCache> C(new ResultCache(Path.str(), std::move(OS)));
  llvm::StringRef Rest = Text;
  for (unsigned LineNo = 1; !Rest.empty(); ++LineNo) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    if (Line.trim().empty())
      continue;
    if (auto Err = C->readLine(Line, LineNo))
      return std::move(Err);
  }
  return C;
}

const Measurement *ResultCache::lookup(const Target &T,
                                       const llvm::json::Object &Config) const {
  auto It = Entries.find(key(T, Config));
  return It == Entries.end() ? nullptr : &It->second;
}

llvm::Error ResultCache::append(const Target &T,
                                const llvm::json::Object &Config,
                                const Measurement &M) {
  std::string Line;
  llvm::raw_string_ostream(Line)
      << llvm::json::Value(toJSON(T, Config, M)) << '\n';
  // One write of the whole line, flushed now: a crash after this returns
  // cannot lose the entry, and one during it tears only this line.
  *OS << Line;
  OS->flush();
  if (OS->has_error()) {
    std::error_code EC = OS->error();
    OS->clear_error();
    return llvm::createStringError(EC, "cannot append to " + Path + ": " +
                                           EC.message());
  }
  Entries[key(T, Config)] = M;
  return llvm::Error::success();
}
