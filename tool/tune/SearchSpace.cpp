//===- SearchSpace.cpp - Tuning parameters and their valid configurations -===//
#include "SearchSpace.h"

#include "llvm/ADT/StringSet.h"
#include <algorithm>

using namespace metacu::tune;

/// Beyond this the product is not enumerated one by one: a restriction
/// callback a billion times is minutes, and indices are 32-bit.
static constexpr uint64_t MaxProduct = uint64_t(1) << 31;

llvm::Error SearchSpace::check(const std::vector<Parameter> &Params,
                               uint64_t &Product) {
  if (Params.empty())
    return llvm::createStringError("a search space needs a parameter");
  llvm::StringSet<> Names;
  Product = 1;
  for (const Parameter &P : Params) {
    if (!Names.insert(P.Name).second)
      return llvm::createStringError("parameter '" + P.Name +
                                     "' is declared twice");
    if (P.Values.empty())
      return llvm::createStringError("parameter '" + P.Name +
                                     "' has no values");
    for (size_t I = 0; I < P.Values.size(); ++I)
      for (size_t J = 0; J < I; ++J)
        if (P.Values[I] == P.Values[J])
          return llvm::createStringError("parameter '" + P.Name +
                                         "' lists the value " +
                                         P.Values[I].str() + " twice");
    if (Product > MaxProduct / P.Values.size())
      return llvm::createStringError(
          "the search space has more than 2^31 configurations");
    Product *= P.Values.size();
  }
  return llvm::Error::success();
}

static std::vector<uint64_t> weightsOf(const std::vector<Parameter> &Params) {
  std::vector<uint64_t> W(Params.size());
  uint64_t Weight = 1;
  for (size_t I = Params.size(); I-- > 0;) {
    W[I] = Weight;
    Weight *= Params[I].Values.size();
  }
  return W;
}

uint64_t SearchSpace::encode(llvm::ArrayRef<uint32_t> C) const {
  uint64_t Code = 0;
  for (size_t I = 0; I < C.size(); ++I)
    Code += C[I] * Weights[I];
  return Code;
}

void SearchSpace::index() {
  IndexOfCode.reserve(Codes.size());
  for (size_t I = 0; I < Codes.size(); ++I)
    IndexOfCode[Codes[I]] = I;
}

llvm::Expected<SearchSpace>
SearchSpace::restricted(std::vector<Parameter> Params, Restriction Allowed) {
  SearchSpace S;
  if (auto Err = check(Params, S.Product))
    return std::move(Err);
  S.Params = std::move(Params);
  S.Weights = weightsOf(S.Params);
  Config C(S.Params.size(), 0);
  for (uint64_t Code = 0; Code < S.Product; ++Code) {
    if (Allowed(C))
      S.Codes.push_back(Code);
    // Odometer increment, last parameter fastest, matching the codes.
    for (size_t I = C.size(); I-- > 0;) {
      if (++C[I] < S.Params[I].Values.size())
        break;
      C[I] = 0;
    }
  }
  S.index();
  return S;
}

llvm::Expected<SearchSpace>
SearchSpace::recorded(std::vector<Parameter> Params,
                      llvm::ArrayRef<Config> Configs) {
  std::vector<uint32_t> Values;
  for (const Config &C : Configs) {
    if (C.size() != Params.size())
      return llvm::createStringError(
          "a configuration has " + std::to_string(C.size()) + " values for " +
          std::to_string(Params.size()) + " parameters");
    Values.insert(Values.end(), C.begin(), C.end());
  }
  return recordedValues(std::move(Params), Values);
}

llvm::Expected<SearchSpace>
SearchSpace::recordedValues(std::vector<Parameter> Params,
                            llvm::ArrayRef<uint32_t> Values) {
  SearchSpace S;
  if (auto Err = check(Params, S.Product))
    return std::move(Err);
  S.Params = std::move(Params);
  S.Weights = weightsOf(S.Params);
  size_t Width = S.Params.size();
  S.Codes.reserve(Values.size() / Width);
  for (size_t At = 0; At + Width <= Values.size(); At += Width) {
    llvm::ArrayRef<uint32_t> C = Values.slice(At, Width);
    for (size_t I = 0; I < Width; ++I)
      if (C[I] >= S.Params[I].Values.size())
        return llvm::createStringError("value index out of range for '" +
                                       S.Params[I].Name + "'");
    S.Codes.push_back(S.encode(C));
  }
  llvm::sort(S.Codes);
  S.Codes.erase(std::unique(S.Codes.begin(), S.Codes.end()), S.Codes.end());
  S.Codes.shrink_to_fit();
  S.index();
  return S;
}

std::optional<unsigned>
SearchSpace::parameterIndex(llvm::StringRef Name) const {
  for (size_t I = 0; I < Params.size(); ++I)
    if (Params[I].Name == Name)
      return I;
  return std::nullopt;
}

Config SearchSpace::config(uint32_t Index) const {
  Config C(Params.size());
  uint64_t Code = Codes[Index];
  for (size_t I = 0; I < Params.size(); ++I) {
    C[I] = Code / Weights[I];
    Code %= Weights[I];
  }
  return C;
}

std::optional<uint32_t> SearchSpace::indexOf(llvm::ArrayRef<uint32_t> C) const {
  if (C.size() != Params.size())
    return std::nullopt;
  for (size_t I = 0; I < C.size(); ++I)
    if (C[I] >= Params[I].Values.size())
      return std::nullopt;
  auto It = IndexOfCode.find(encode(C));
  if (It == IndexOfCode.end())
    return std::nullopt;
  return It->second;
}

const Value &SearchSpace::value(uint32_t Index, unsigned Param) const {
  return Params[Param]
      .Values[Codes[Index] / Weights[Param] % Params[Param].Values.size()];
}

void SearchSpace::neighbours(uint32_t Index, Neighbourhood N,
                             llvm::SmallVectorImpl<uint32_t> &Out) const {
  Out.clear();
  uint64_t Code = Codes[Index];
  auto Try = [&](uint64_t Candidate) {
    auto It = IndexOfCode.find(Candidate);
    if (It != IndexOfCode.end())
      Out.push_back(It->second);
  };
  for (size_t P = 0; P < Params.size(); ++P) {
    uint64_t Count = Params[P].Values.size();
    uint64_t Current = Code / Weights[P] % Count;
    uint64_t Base = Code - Current * Weights[P];
    if (N == Neighbourhood::Hamming) {
      for (uint64_t V = 0; V < Count; ++V)
        if (V != Current)
          Try(Base + V * Weights[P]);
    } else {
      if (Current > 0)
        Try(Base + (Current - 1) * Weights[P]);
      if (Current + 1 < Count)
        Try(Base + (Current + 1) * Weights[P]);
    }
  }
  llvm::sort(Out);
}

std::string SearchSpace::key(uint32_t Index) const {
  std::string Key;
  for (size_t P = 0; P < Params.size(); ++P) {
    if (P)
      Key += ',';
    Key += value(Index, P).str();
  }
  return Key;
}

std::string SearchSpace::describe(uint32_t Index) const {
  std::string Text;
  for (size_t P = 0; P < Params.size(); ++P)
    Text += (P ? " " : "") + Params[P].Name + "=" + value(Index, P).str();
  return Text;
}

llvm::json::Object SearchSpace::toJSON(uint32_t Index) const {
  llvm::json::Object O;
  for (size_t P = 0; P < Params.size(); ++P)
    O[Params[P].Name] = value(Index, P).toJSON();
  return O;
}
