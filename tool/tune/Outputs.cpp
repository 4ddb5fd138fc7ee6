//===- Outputs.cpp - What every mode of `metacu tune` writes --------------===//
#include "Outputs.h"
#include "HtmlReport.h"
#include "KernelTunerCache.h"
#include "T4.h"
#include "TuningFile.h"

#include "support/FileLock.h"
#include "support/Output.h"
#include "support/TerminalStream.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace metacu;
using namespace metacu::tune;

/// \p Read without the tuning file: the kernel's meta code may read it,
/// and the run updates it on purpose.
static std::vector<std::string>
withoutTuningFile(const RunOutputs &O, std::vector<std::string> Read) {
  if (!O.TuningFile.empty())
    llvm::erase_if(Read, [&](const std::string &P) {
      return llvm::sys::fs::equivalent(P, O.TuningFile);
    });
  return Read;
}

llvm::Error metacu::tune::checkRunOutputs(const RunOutputs &O,
                                          std::vector<std::string> Read,
                                          llvm::ArrayRef<std::string> Others) {
  std::vector<std::string> Outputs(Others.begin(), Others.end());
  for (const std::string *P :
       {&O.T4, &O.KTCache, &O.TuningFile, &O.Html, &O.Journal})
    if (!P->empty())
      Outputs.push_back(*P);
  if (llvm::Error E =
          checkOutputPaths(Outputs, withoutTuningFile(O, std::move(Read))))
    return E;
  if (!O.TuningFile.empty())
    if (auto File = TuningFile::read(O.TuningFile); !File)
      return File.takeError();
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<tune::Journal>>
metacu::tune::openJournal(const RunOutputs &O) {
  if (O.Journal.empty())
    return nullptr;
  return tune::Journal::open(O.Journal);
}

void metacu::tune::printRunSummary(llvm::raw_ostream &Terminal,
                                   const RunOutputs &O, const RunInfo &Info,
                                   const SearchSpace &Space,
                                   const TuneResult &Run,
                                   llvm::StringRef Heading,
                                   const SummaryRows &Extra) {
  TerminalStream OS(Terminal);
  size_t Invalid = 0, Resumed = 0;
  for (const Evaluation &E : Run.Trace) {
    Invalid += !E.M.valid();
    Resumed += E.Resumed;
  }
  OS << Heading << '\n';
  SummaryRows Rows;
  Rows.emplace_back("space",
                    llvm::formatv("{0} valid configurations", Space.size()));
  Rows.emplace_back("strategy", Run.Strategy);
  std::string Evals = std::to_string(Run.Trace.size()) + " (" +
                      std::to_string(Invalid) + " invalid";
  if (Resumed)
    Evals += ", " + std::to_string(Resumed) + " from the journal";
  Rows.emplace_back("evaluations", Evals + ")");
  Rows.insert(Rows.end(), Extra.begin(), Extra.end());
  if (!Info.Note.empty())
    Rows.emplace_back("note", Info.Note);
  printSummary(OS, Rows, Space, Run.Trace, Info.Objective, O.Top);
}

llvm::Error metacu::tune::writeRunOutputs(const RunOutputs &O,
                                          const RunInfo &Info,
                                          const SearchSpace &Space,
                                          const TuneResult &Run,
                                          std::vector<std::string> Read,
                                          llvm::raw_ostream &Log) {
  std::vector<OutputFile> Files;
  if (!O.T4.empty()) {
    auto F = t4File(O.T4, Space, Run.Trace, Info.Objective.Name);
    if (!F)
      return F.takeError();
    Files.push_back(std::move(*F));
  }
  if (!O.KTCache.empty()) {
    KernelTunerCache Cache;
    Cache.DeviceName = Info.Where.Device;
    Cache.KernelName = Info.Kernel;
    Cache.Objective = Info.Objective.Name;
    Cache.Params.assign(Space.parameters().begin(), Space.parameters().end());
    for (const Evaluation &E : Run.Trace)
      Cache.record(Space, E.Config, E.M);
    auto F = Cache.file(O.KTCache);
    if (!F)
      return F.takeError();
    Files.push_back(std::move(*F));
  }
  if (!O.Html.empty())
    Files.push_back({O.Html, renderHtmlReport(Info, Space, Run, O.Top)});
  // Held from reading the tuning file to writing it: a run updating it at
  // the same time waits, then merges into what this one wrote.
  std::optional<FileLock> Lock;
  std::optional<TuningFileUpdate> Update;
  if (!O.TuningFile.empty()) {
    auto E = bestEntry(Info, Space, Run);
    if (!E)
      return llvm::createStringError(O.TuningFile + ": " +
                                     llvm::toString(E.takeError()));
    auto L = FileLock::acquire(O.TuningFile);
    if (!L)
      return L.takeError();
    Lock.emplace(std::move(*L));
    auto U = mergeIntoTuningFile(O.TuningFile, Info,
                                 {{Info.Where.Arch, std::move(*E)}}, O.Force);
    if (!U)
      return U.takeError();
    if (U->Text)
      Files.push_back({O.TuningFile, *U->Text});
    Update = std::move(*U);
  }
  if (!O.Journal.empty())
    Read.push_back(O.Journal);
  if (llvm::Error Err =
          writeOutputs(Files, withoutTuningFile(O, std::move(Read))))
    return Err;
  if (Update)
    for (const auto &[Key, Entry, Merge] : Update->Merges)
      Log << "metacu tune: " << O.TuningFile << ": "
          << Merge.describe(Key, Entry) << '\n';
  return llvm::Error::success();
}
