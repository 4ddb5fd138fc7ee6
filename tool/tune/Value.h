//===- Value.h - One value of a tuning parameter --------------------------===//
//
// Tuning parameters take integers, floating-point numbers, booleans or
// strings. Kernel Tuner's files spell them as JSON and key configurations by
// Python's str() of each value, so a value knows both spellings.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_VALUE_H
#define METACU_TUNE_VALUE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <string>

namespace metacu::tune {

class Value {
public:
  enum class Kind : uint8_t { Int, Float, Bool, String };

  static Value integer(int64_t I);
  static Value real(double D);
  static Value boolean(bool B);
  static Value string(std::string S);
  /// Numbers, booleans and strings; anything else is an error. An integral
  /// number reads as an Int even when written 4.0: llvm::json does not keep
  /// the spelling. An integer above 2^63-1 is an error, not the double
  /// nearest to it: an Int is 64-bit signed, as the meta code's json is.
  static llvm::Expected<Value> fromJSON(const llvm::json::Value &V);

  Kind kind() const { return K; }
  bool isNumber() const { return K == Kind::Int || K == Kind::Float; }
  /// Ints and floats as a double (an int is exact up to 2^53).
  double asDouble() const;
  int64_t asInt() const { return I; }
  bool asBool() const { return I != 0; }
  llvm::StringRef asString() const { return S; }

  llvm::json::Value toJSON() const;
  /// What Python's str() prints for the value, as in Kernel Tuner's cache
  /// keys: 16, 0.5, 1.0, True, name.
  std::string str() const;

  /// Numbers compare by value (16 == 16.0, as in Python); other kinds only
  /// equal their own kind.
  friend bool operator==(const Value &A, const Value &B);
  friend bool operator!=(const Value &A, const Value &B) { return !(A == B); }

private:
  Kind K = Kind::Int;
  int64_t I = 0;
  double D = 0;
  std::string S;
};

/// Value::fromJSON for json::ObjectMapper and the fromJSON of containers:
/// an error is reported at \p P.
bool fromJSON(const llvm::json::Value &V, Value &Out, llvm::json::Path P);

} // namespace metacu::tune

#endif
