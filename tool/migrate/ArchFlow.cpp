//===- ArchFlow.cpp -------------------------------------------------------===//
#include "migrate/ArchFlow.h"
#include "toolchain/Invocation.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace metacu {

namespace {

/// Preprocesses the text of the conditions, noting the value of each #if.
class ConditionValues : public clang::PreprocessOnlyAction {
public:
  explicit ConditionValues(std::vector<bool> &Values) : Values(Values) {}

  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    struct Note : clang::PPCallbacks {
      explicit Note(std::vector<bool> &Values) : Values(Values) {}
      void If(clang::SourceLocation, clang::SourceRange,
              ConditionValueKind Value) override {
        Values.push_back(Value == CVK_True);
      }
      std::vector<bool> &Values;
    };
    CI.getPreprocessor().addPPCallbacks(std::make_unique<Note>(Values));
    return true;
  }

private:
  std::vector<bool> &Values;
};

} // namespace

uint64_t passesAlike(const ArchRecord &R, uint64_t Candidates) {
  Candidates &= ~(uint64_t(1) << R.Pass) & ~uint64_t(1);
  if (R.Unsafe || R.Args.empty() || !Candidates)
    return 0;
  if (R.Conditions.empty())
    return Candidates;
  std::vector<unsigned> Passes{R.Pass};
  for (unsigned P = 1; P < NumPasses; ++P)
    if (Candidates >> P & 1)
      Passes.push_back(P);
  // Each pass's value, then every condition with the macros it reaches as
  // they were there; the pass's own value first, as a check that the
  // conditions read here as they did in the pass.
  std::string Text;
  llvm::StringMap<std::string> State;
  for (unsigned P : Passes) {
    Text += "#undef __CUDA_ARCH__\n#define __CUDA_ARCH__ " +
            std::to_string(auditPasses()[P] * 10) + "\n";
    for (const ArchCondition &C : R.Conditions) {
      for (const auto &[Name, Line] : C.Macros) {
        std::string &Now = State[Name];
        if (Now != Line) {
          Text += Line + "\n";
          Now = Line;
        }
      }
      if (C.Whole.empty()) {
        Text += "#if " + C.Text + "\n#endif\n";
        continue;
      }
      Text += C.Whole + "\n";
      for (const std::string &N : C.Sets)
        State.erase(N);
    }
  }
  // In memory, beside the working directory; the pass's own command line
  // (its language, target and macros), less what it includes first.
  llvm::SmallString<256> Path;
  llvm::sys::fs::current_path(Path);
  llvm::sys::path::append(Path, "metacu-arch-conditions.cc");
  std::vector<std::string> Args;
  for (size_t I = 0; I + 1 < R.Args.size(); ++I) {
    if (R.Args[I] == "-include" && I + 2 < R.Args.size()) {
      ++I;
      continue;
    }
    if (llvm::StringRef(R.Args[I]).starts_with("-include"))
      continue;
    Args.push_back(R.Args[I]);
  }
  Args.push_back(std::string(Path));
  auto Files = filesWith(Text, Path);
  std::vector<bool> Values;
  clang::DiagnosticConsumer Errors; // counts them
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<ConditionValues>(Values), Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  if (!Invocation.run() || Errors.getNumErrors() ||
      Values.size() != Passes.size() * R.Conditions.size())
    return 0;
  size_t N = R.Conditions.size();
  for (size_t I = 0; I < N; ++I)
    if (Values[I] != R.Conditions[I].Value)
      return 0;
  uint64_t Alike = 0;
  for (size_t P = 1; P < Passes.size(); ++P) {
    bool Same = true;
    // A conditional evaluated whole may choose another branch: what that
    // defines is read by the conditions after it.
    for (size_t I = 0; I < N && Same; ++I)
      Same = !R.Conditions[I].Whole.empty() ||
             Values[P * N + I] == R.Conditions[I].Value;
    if (Same)
      Alike |= uint64_t(1) << Passes[P];
  }
  return Alike;
}

bool stillAlike(const ArchRecord &R, const Facts &F) {
  for (const auto &N : R.NotDerived)
    if (F.Derived.contains(N.getKey()))
      return false;
  for (const auto &N : R.NotAliases)
    if (F.Aliases.contains(N.getKey()))
      return false;
  for (const auto &[N, Space] : R.SpacesRead)
    if (F.Spaces.lookup(N) != Space)
      return false;
  return true;
}

void copyPass(Facts &F, unsigned From, unsigned To) {
  for (auto &[K, G] : F.Groups)
    G.Taken[To] = G.Taken[From];
  F.Preprocessed |= uint64_t(1) << To;
}

} // namespace metacu
