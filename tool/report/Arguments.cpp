//===- Arguments.cpp ------------------------------------------------------===//
#include "report/Arguments.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include <cstdlib>
#include <string>

namespace metacu::report {

llvm::Expected<std::vector<std::optional<int64_t>>>
parseArguments(llvm::StringRef Text) {
  std::vector<std::optional<int64_t>> Args;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',');
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty() || Part == "_") {
      Args.push_back(std::nullopt);
      continue;
    }
    int64_t V;
    if (Part.getAsInteger(0, V))
      return llvm::createStringError("'" + Part.str() +
                                     "': an argument is an integer or _");
    Args.push_back(V);
  }
  return Args;
}

// Whether a demangled parameter type is an integer a size can be.
static bool isInteger(llvm::StringRef Type) {
  return llvm::StringSwitch<bool>(Type.trim())
      .Cases({"char", "signed char", "unsigned char", "short",
              "unsigned short", "int", "unsigned int", "long",
              "unsigned long", "long long", "unsigned long long"},
             true)
      .Default(false);
}

std::vector<std::optional<int64_t>>
integerArguments(llvm::StringRef Mangled, llvm::ArrayRef<int64_t> Sizes) {
  if (Sizes.empty())
    return {};
  // The demangler's tree points into the name: it must outlive it.
  std::string Name = Mangled.str();
  llvm::ItaniumPartialDemangler D;
  if (D.partialDemangle(Name.c_str()) || !D.isFunction())
    return {};
  size_t N = 0;
  char *Buffer = D.getFunctionParameters(nullptr, &N);
  if (!Buffer)
    return {};
  llvm::StringRef List(Buffer);
  List = List.trim();
  if (List.consume_front("("))
    List.consume_back(")");
  // The parameters, split at the commas outside <>, () and [].
  std::vector<std::optional<int64_t>> Args;
  size_t Next = 0;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= List.size(); ++I) {
    char C = I < List.size() ? List[I] : ',';
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      llvm::StringRef Type = List.slice(Start, I);
      Args.push_back(isInteger(Type) && Next < Sizes.size()
                         ? std::optional<int64_t>(Sizes[Next++])
                         : std::nullopt);
      Start = I + 1;
    }
  }
  std::free(Buffer);
  if (Next < Sizes.size())
    return {};
  return Args;
}

} // namespace metacu::report
