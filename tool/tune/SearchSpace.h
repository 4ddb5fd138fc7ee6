//===- SearchSpace.h - Tuning parameters and their valid configurations ---===//
//
// A search space is a list of named parameters, each with an ordered list of
// values, and the subset of their Cartesian product that is valid: the
// configurations a restriction accepts, or, when replaying, the ones a cache
// file recorded. Strategies work on indices into that valid set and on its
// neighbourhoods, never on the full product, so they never propose a
// configuration that cannot be built.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_SEARCHSPACE_H
#define METACU_TUNE_SEARCHSPACE_H

#include "Value.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu::tune {

struct Parameter {
  std::string Name;
  /// In the order that "adjacent" refers to: neighbours are one step apart.
  std::vector<Value> Values;
};

/// One value index per parameter, in the space's parameter order.
using Config = llvm::SmallVector<uint32_t, 12>;

/// Which configurations count as one step away from a given one.
enum class Neighbourhood {
  /// Any other value of any one parameter.
  Hamming,
  /// The previous or next value of any one parameter.
  Adjacent,
};

class SearchSpace {
public:
  /// No parameters and no configurations.
  SearchSpace() = default;

  /// Whether a configuration (value indices) is allowed.
  using Restriction = llvm::function_ref<bool(llvm::ArrayRef<uint32_t>)>;

  /// The configurations of the Cartesian product that \p Allowed accepts,
  /// enumerated with the last parameter varying fastest (Kernel Tuner's
  /// order). Fails on an empty value list, a repeated name or value, or a
  /// product too large to enumerate.
  static llvm::Expected<SearchSpace> restricted(std::vector<Parameter> Params,
                                                Restriction Allowed);
  /// Exactly the given configurations (e.g. those a cache recorded), sorted
  /// into enumeration order; duplicates are merged.
  static llvm::Expected<SearchSpace> recorded(std::vector<Parameter> Params,
                                              llvm::ArrayRef<Config> Configs);
  /// recorded() of configurations given one after another, a value index
  /// per parameter each: a million take 4 bytes a value, not a Config each.
  static llvm::Expected<SearchSpace>
  recordedValues(std::vector<Parameter> Params,
                 llvm::ArrayRef<uint32_t> Values);

  llvm::ArrayRef<Parameter> parameters() const { return Params; }
  /// The position of the parameter called \p Name.
  std::optional<unsigned> parameterIndex(llvm::StringRef Name) const;

  /// Number of valid configurations.
  size_t size() const { return Codes.size(); }
  /// Number of configurations of the Cartesian product, valid or not.
  uint64_t productSize() const { return Product; }

  Config config(uint32_t Index) const;
  /// The index of \p C among the valid configurations, if it is one.
  std::optional<uint32_t> indexOf(llvm::ArrayRef<uint32_t> C) const;
  const Value &value(uint32_t Index, unsigned Param) const;

  /// The valid configurations one step from \p Index, in ascending index
  /// order; never \p Index itself.
  void neighbours(uint32_t Index, Neighbourhood N,
                  llvm::SmallVectorImpl<uint32_t> &Out) const;

  /// Kernel Tuner's cache key: the values' Python spellings joined by ",".
  std::string key(uint32_t Index) const;
  /// For people: "block_size_x=64 block_size_y=4".
  std::string describe(uint32_t Index) const;
  /// The configuration as a JSON object, parameter name to value.
  llvm::json::Object toJSON(uint32_t Index) const;

private:
  static llvm::Error check(const std::vector<Parameter> &Params,
                           uint64_t &Product);
  uint64_t encode(llvm::ArrayRef<uint32_t> C) const;
  void index();

  std::vector<Parameter> Params;
  /// Mixed-radix weight of each parameter; the last has weight 1, so sorted
  /// codes are enumeration order.
  std::vector<uint64_t> Weights;
  uint64_t Product = 0;
  std::vector<uint64_t> Codes;
  llvm::DenseMap<uint64_t, uint32_t> IndexOfCode;
};

} // namespace metacu::tune

#endif
