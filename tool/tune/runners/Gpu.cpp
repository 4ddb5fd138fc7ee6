//===- Gpu.cpp - The runner that compiles and times candidates on GPUs ----===//
#include "Gpu.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace metacu::tune;

/// A temporary file for a process's standard output.
static llvm::Expected<std::string> outputFile(llvm::StringRef What) {
  llvm::SmallString<128> Out;
  int FD;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("metacu-tune", "out", FD, Out))
    return llvm::createStringError(What + ": " + EC.message());
  ::close(FD);
  return Out.str().str();
}

/// Runs \p Exe with \p Args, its standard output to \p Out, which is
/// returned and removed; fails on a nonzero exit. With \p Env, the process
/// gets it, and nothing is read of this process's environment (which
/// another thread may change).
static llvm::Expected<std::string>
runCapturing(llvm::StringRef Exe, llvm::ArrayRef<std::string> Args,
             llvm::StringRef What, llvm::StringRef Out,
             std::optional<llvm::ArrayRef<llvm::StringRef>> Env) {
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Out,
                                                std::nullopt};
  std::string Error;
  int RC = llvm::sys::ExecuteAndWait(Exe, Argv, Env, Redirects, 0, 0, &Error);
  auto Buf = llvm::MemoryBuffer::getFile(Out);
  llvm::sys::fs::remove(Out);
  if (RC != 0)
    return llvm::createStringError(What + " failed" +
                                   (Error.empty() ? "" : ": " + Error) +
                                   llvm::formatv(" (exit status {0})", RC));
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// Runs \p Args, returning its stdout; fails on a nonzero exit.
static llvm::Expected<std::string> capture(llvm::ArrayRef<std::string> Args,
                                           llvm::StringRef What) {
  auto Exe = llvm::sys::findProgramByName(Args[0]);
  if (!Exe)
    return llvm::createStringError(What + ": cannot find " + Args[0]);
  auto Out = outputFile(What);
  if (!Out)
    return Out.takeError();
  return runCapturing(*Exe, Args, What, *Out, std::nullopt);
}

std::future<GpuQuery> metacu::tune::queryGpu(llvm::StringRef Gpus) {
  std::string First = Gpus.split(',').first.str();
  if (First == "all")
    First = "0";
  std::string What = "nvidia-smi (is there a GPU?)";
  // Found, its output file named and its environment copied here: the
  // run's expansion sets a variable of this process's meanwhile.
  auto Exe = llvm::sys::findProgramByName("nvidia-smi");
  auto File = outputFile(What);
  if (!Exe || !File) {
    if (File)
      llvm::sys::fs::remove(*File);
    std::promise<GpuQuery> None;
    None.set_value({"", "",
                    File ? What + ": cannot find nvidia-smi"
                         : llvm::toString(File.takeError())});
    return None.get_future();
  }
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    Env.push_back(*E);
  return std::async(std::launch::async, [=, Exe = *Exe, File = *File] {
    std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
    auto Out = runCapturing(Exe,
                            {Exe, "--query-gpu=name,driver_version",
                             "--format=csv,noheader", "-i", First},
                            What, File, llvm::ArrayRef(EnvRefs));
    if (!Out)
      return GpuQuery{"", "", llvm::toString(Out.takeError())};
    auto [Name, Driver] = llvm::StringRef(*Out).trim().split(',');
    return GpuQuery{Name.trim().str(), Driver.trim().str(), ""};
  });
}

std::string metacu::tune::harnessClang() {
  if (const char *Given = std::getenv("METACU_TUNE_CLANG"))
    return Given;
  std::string Exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&harnessClang));
  llvm::SmallString<256> Beside(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Beside, "clang");
  for (llvm::StringRef Clang : {llvm::StringRef(Beside), llvm::StringRef(METACU_LLVM_CLANG)})
    if (llvm::sys::fs::can_execute(Clang))
      return Clang.str();
  return "";
}

/// The command line of the run.py in \p Dir: \p Mode's flags, then what
/// every mode takes (\p Options' GPUs, nvcc, Clang, the jobs; the timeout if
/// \p Timeout).
static std::vector<std::string> runPyArgs(const GpuRunnerOptions &Options,
                                          llvm::StringRef Python,
                                          llvm::StringRef Dir,
                                          llvm::ArrayRef<llvm::StringRef> Mode,
                                          bool Timeout) {
  std::vector<std::string> Args{Python.str(), (Dir + "/run.py").str()};
  for (llvm::StringRef M : Mode)
    Args.push_back(M.str());
  Args.insert(Args.end(), {"--gpus", Options.Gpus, "--nvcc", Options.Nvcc});
  if (!Options.Clang.empty())
    Args.insert(Args.end(), {"--clang", Options.Clang});
  if (Timeout)
    Args.insert(Args.end(),
                {"--timeout", llvm::formatv("{0}", Options.Timeout).str()});
  if (Options.Jobs)
    Args.insert(Args.end(), {"--jobs", std::to_string(Options.Jobs)});
  return Args;
}

/// \p Args as posix_spawn takes them (pointing into \p Args).
static std::vector<char *> argvOf(std::vector<std::string> &Args) {
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  return Argv;
}

/// Starts the run.py of \p Args (in \p Dir) into \p Server, its standard
/// input a socket, so that a write after it stopped is an error
/// (MSG_NOSIGNAL), not a SIGPIPE that ends metacu, and its standard error
/// to Dir/run.log.
static llvm::Error spawnServer(std::vector<std::string> Args,
                               llvm::StringRef Dir, EarlyRunPy &Server) {
  std::vector<char *> Argv = argvOf(Args);
  int In[2], Out[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, In) != 0)
    return llvm::createStringError(
        std::error_code(errno, std::generic_category()), "cannot start run.py");
  if (::pipe2(Out, O_CLOEXEC) != 0) {
    ::close(In[0]);
    ::close(In[1]);
    return llvm::createStringError(
        std::error_code(errno, std::generic_category()), "cannot start run.py");
  }
  std::string Log = (Dir + "/run.log").str();
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, In[1], 0);
  posix_spawn_file_actions_adddup2(&Actions, Out[1], 1);
  posix_spawn_file_actions_addopen(&Actions, 2, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t Pid;
  int Err =
      ::posix_spawn(&Pid, Argv[0], &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(In[1]);
  ::close(Out[1]);
  if (Err != 0) {
    ::close(In[0]);
    ::close(Out[0]);
    return llvm::createStringError(
        std::error_code(Err, std::generic_category()),
        "cannot start " + Dir + "/run.py");
  }
  Server.Pid = Pid;
  Server.ToServer = In[0];
  Server.FromServer = ::fdopen(Out[0], "r");
  return llvm::Error::success();
}

EarlyRunPy::~EarlyRunPy() {
  if (ToServer >= 0)
    ::close(ToServer);
  if (FromServer)
    std::fclose(FromServer);
  if (Pid < 0)
    return;
  ::waitpid(Pid, nullptr, 0);
  if (!Made.empty())
    llvm::sys::fs::remove_directories(Made);
}

std::unique_ptr<EarlyRunPy>
metacu::tune::startEarlyRunPy(const GpuRunnerOptions &Options,
                              llvm::StringRef Key) {
  std::string Dir = Options.WorkDir + "/run";
  auto Python = llvm::sys::findProgramByName(Options.Python);
  if (!Python)
    return nullptr;
  auto Server = std::make_unique<EarlyRunPy>();
  if (!llvm::sys::fs::exists(Options.WorkDir))
    Server->Made = Options.WorkDir;
  else if (!llvm::sys::fs::exists(Dir))
    Server->Made = Dir;
  if (llvm::sys::fs::create_directories(Dir))
    return nullptr;
  // The bundle, written after the expansion, writes this same script.
  if (llvm::Error E =
          llvm::writeToOutput(Dir + "/run.py", [](llvm::raw_ostream &OS) {
            OS << runScript();
            return llvm::Error::success();
          })) {
    llvm::consumeError(std::move(E));
    if (!Server->Made.empty())
      llvm::sys::fs::remove_directories(Server->Made);
    return nullptr;
  }
  std::vector<llvm::StringRef> Mode{"--rounds", "--early", Key};
  // The harness's machinery compiled while the file expands, where the
  // cache has none (run.py's machinery_object).
  if (!Options.Bundle.RuntimeInclude.empty())
    Mode.insert(Mode.end(),
                {"--machinery-include", Options.Bundle.RuntimeInclude});
  if (llvm::Error E = spawnServer(
          runPyArgs(Options, *Python, Dir, Mode, /*Timeout=*/true), Dir,
          *Server)) {
    llvm::consumeError(std::move(E));
    if (!Server->Made.empty())
      llvm::sys::fs::remove_directories(Server->Made);
    return nullptr;
  }
  return Server;
}

llvm::Expected<std::unique_ptr<GpuRunner>>
GpuRunner::create(const DeclaredSpace &D, const SearchSpace &Space,
                  GpuRunnerOptions Options, Generator Generate, GpuQuery Query,
                  std::unique_ptr<EarlyRunPy> Early) {
  if (!Query.Error.empty())
    return llvm::createStringError(Query.Error);
  std::unique_ptr<GpuRunner> R(new GpuRunner(D, Space));
  R->Where = {Options.Bundle.Arch, std::move(Query.Name)};
  R->Driver = std::move(Query.Driver);
  R->Batch = std::max(1u, Options.Bundle.BatchSize);
  R->Options = std::move(Options);
  R->Generate = std::move(Generate);
  R->Early = std::move(Early);
  return std::move(R);
}

unsigned GpuRunner::roundSize() const {
  unsigned Workers =
      Options.Jobs ? Options.Jobs : std::thread::hardware_concurrency();
  return std::clamp(Workers, 1u, Batch);
}

void GpuRunner::prebuildHarness() {
  if (HarnessStarted || Options.Bundle.HarnessSource.empty())
    return;
  HarnessStarted = true;
  std::string Dir = Options.WorkDir + "/harness";
  BundleOptions B = Options.Bundle;
  B.Force = true;
  if (llvm::Error E = writeBundle(Dir, Declared, Space, {}, B,
                                  [](llvm::ArrayRef<Candidate>) {
                                    return llvm::Expected<std::string>("");
                                  })) {
    llvm::consumeError(std::move(E));
    return;
  }
  auto Python = llvm::sys::findProgramByName(Options.Python);
  if (!Python)
    return llvm::consumeError(llvm::errorCodeToError(Python.getError()));
  std::vector<std::string> Args =
      runPyArgs(Options, *Python, Dir, {"--harness-only"}, /*Timeout=*/false);
  std::vector<char *> Argv = argvOf(Args);
  std::string Log = Dir + "/run.log";
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  pid_t Pid;
  if (::posix_spawn(&Pid, Argv[0], &Actions, nullptr, Argv.data(), environ) ==
      0)
    HarnessPid = Pid;
  posix_spawn_file_actions_destroy(&Actions);
}

llvm::Error GpuRunner::run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) {
  if (Space.size() > Options.RunWideCandidates)
    // A bundle per round, each with its own run.py: the early one, and the
    // harness it may have started, would only hold the GPU (ended before
    // the harness's folder is made in the work folder it may remove).
    Early.reset();
  prebuildHarness();
  if (Space.size() > Options.RunWideCandidates)
    return runRound(Configs, Done);
  if (ServerPid < 0)
    if (llvm::Error E = startServing())
      return E;
  return runServed(Configs, Done);
}

/// The last line \p Path holds, or "".
static std::string lastLine(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return "";
  llvm::StringRef Text = (*Buf)->getBuffer().rtrim();
  return Text.substr(Text.rfind('\n') + 1).trim().str();
}

llvm::Error GpuRunner::stopServing() {
  ::close(ToServer);
  std::fclose(FromServer);
  int Status = 0;
  ::waitpid(ServerPid, &Status, 0);
  ServerPid = -1;
  std::string Log = ServedDir + "/run.log";
  std::string Why = lastLine(Log);
  return llvm::createStringError(llvm::formatv(
      "{0}/run.py stopped ({1}){2}{3}", ServedDir,
      WIFEXITED(Status) ? "exit status " + std::to_string(WEXITSTATUS(Status))
                        : std::string("killed by a signal"),
      Why.empty() ? "" : ": ", Why));
}

llvm::Error GpuRunner::startServing() {
  ServedDir = Options.WorkDir + "/run";
  // Every candidate of the space in one expansion, whose harness run.py
  // compiles once for the run.
  BundleOptions B = Options.Bundle;
  B.BatchSize = std::max<size_t>(1, Space.size());
  // The run's scratch folder, read back after every round: an earlier
  // run's may be replaced.
  B.Force = true;
  std::vector<uint32_t> All(Space.size());
  for (size_t I = 0; I < All.size(); ++I)
    All[I] = uint32_t(I);
  if (llvm::Error E =
          writeBundle(ServedDir, Declared, Space, All, B,
                      [&](llvm::ArrayRef<Candidate> C) { return Generate(C); }))
    return E;
  if (Early) {
    // Started before the expansion (startEarlyRunPy): it reads this bundle
    // at the first round's line.
    std::swap(ServerPid, Early->Pid);
    std::swap(ToServer, Early->ToServer);
    std::swap(FromServer, Early->FromServer);
    Early.reset();
    return llvm::Error::success();
  }
  auto Python = llvm::sys::findProgramByName(Options.Python);
  if (!Python)
    return llvm::createStringError("cannot find " + Options.Python);
  EarlyRunPy Server;
  if (llvm::Error E = spawnServer(runPyArgs(Options, *Python, ServedDir,
                                            {"--rounds"}, /*Timeout=*/true),
                                  ServedDir, Server))
    return E;
  std::swap(ServerPid, Server.Pid);
  std::swap(ToServer, Server.ToServer);
  std::swap(FromServer, Server.FromServer);
  return llvm::Error::success();
}

llvm::Error GpuRunner::runServed(llvm::ArrayRef<uint32_t> Configs,
                                 DoneFn Done) {
  std::string Line = "[";
  for (size_t I = 0; I < Configs.size(); ++I)
    Line += (I ? ", " : "") + std::to_string(Configs[I]);
  Line += "]\n";
  for (size_t Sent = 0; Sent < Line.size();) {
    ssize_t N =
        ::send(ToServer, Line.data() + Sent, Line.size() - Sent, MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return stopServing();
    Sent += size_t(N);
  }
  llvm::DenseMap<uint32_t, size_t> Position;
  for (size_t I = 0; I < Configs.size(); ++I)
    Position.try_emplace(Configs[I], I);
  // The round's results reported so far, each once; none after Done asked
  // to stop.
  llvm::DenseSet<uint32_t> Reported;
  bool Stopped = false;
  auto Report = [&]() -> llvm::Error {
    auto Results = readBundle(ServedDir);
    if (!Results)
      return Results.takeError();
    for (auto &[Config, M] : Results->Results) {
      auto It = Position.find(Config);
      if (It == Position.end() || !Reported.insert(Config).second)
        continue; // an earlier round's, or told already
      if (!Stopped && !Done(It->second, std::move(M)))
        Stopped = true;
    }
    return llvm::Error::success();
  };
  // Its answers: results measured ({"measured": [...]}, each in
  // results.jsonl, reported now so that the search has them before the
  // round ends), then the round's end, every result in results.jsonl.
  for (;;) {
    char *Buf = nullptr;
    size_t Cap = 0;
    ssize_t N = ::getline(&Buf, &Cap, FromServer);
    std::string Reply = N > 0 ? std::string(Buf, size_t(N)) : std::string();
    std::free(Buf);
    if (N <= 0)
      return stopServing();
    auto Answer = llvm::json::parse(Reply);
    const llvm::json::Object *O = Answer ? Answer->getAsObject() : nullptr;
    if (!O || !(O->get("round") || O->get("measured"))) {
      if (!Answer)
        llvm::consumeError(Answer.takeError());
      return llvm::createStringError(ServedDir + "/run.py answered '" +
                                     llvm::StringRef(Reply).trim() +
                                     "', not a round's end or its results");
    }
    if (llvm::Error E = Report())
      return E;
    if (O->get("round"))
      break;
  }
  if (!Stopped && Reported.size() < Position.size())
    return llvm::createStringError(
        llvm::formatv("{0}: {1} of {2} candidates have no result", ServedDir,
                      Position.size() - Reported.size(), Position.size()));
  return llvm::Error::success();
}

GpuRunner::~GpuRunner() {
  // The end of its input ends run.py, which ends its harnesses.
  if (ServerPid >= 0)
    llvm::consumeError(stopServing());
  if (HarnessPid >= 0)
    ::waitpid(HarnessPid, nullptr, 0);
}

llvm::Error GpuRunner::runRound(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) {
  std::string Dir = llvm::formatv("{0}/round_{1}", Options.WorkDir, Round++);
  // The round is one translation unit: one expansion (whose fixed cost
  // dominates for a few candidates), which run.py compiles over the cores
  // in shards.
  BundleOptions B = Options.Bundle;
  B.BatchSize = std::max<size_t>(1, Configs.size());
  // The rounds are metacu's scratch folders, their results read back (and
  // journaled) as soon as run.py ends: an earlier run's may be replaced.
  B.Force = true;
  if (llvm::Error E =
          writeBundle(Dir, Declared, Space, Configs, B,
                      [&](llvm::ArrayRef<Candidate> C) { return Generate(C); }))
    return E;
  std::vector<std::string> Args =
      runPyArgs(Options, Options.Python, Dir, {}, /*Timeout=*/true);
  if (auto Out = capture(Args, Dir + "/run.py"); !Out)
    return Out.takeError();
  auto Results = readBundle(Dir);
  if (!Results)
    return Results.takeError();
  llvm::DenseMap<uint32_t, size_t> Position;
  for (size_t I = 0; I < Configs.size(); ++I)
    Position[Configs[I]] = I;
  for (auto &[Config, M] : Results->Results)
    if (!Done(Position.lookup(Config), std::move(M)))
      break;
  if (Results->Results.size() < Configs.size())
    return llvm::createStringError(llvm::formatv(
        "{0}: {1} of {2} candidates have no result", Dir,
        Configs.size() - Results->Results.size(), Configs.size()));
  return llvm::Error::success();
}
