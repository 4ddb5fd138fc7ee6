//===- Random.h - The tuner's pseudo-random numbers -----------------------===//
//
// xoshiro256** seeded through splitmix64, with our own integer and real
// mappings: the standard library's distributions differ between
// implementations, and a tuning run must repeat exactly for a given seed on
// every platform.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_RANDOM_H
#define METACU_TUNE_RANDOM_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace metacu::tune {

class Random {
public:
  explicit Random(uint64_t Seed);

  uint64_t next();
  /// Uniform in [0, N); N must be positive.
  uint64_t below(uint64_t N);
  /// Uniform in [0, 1) with 53 random bits.
  double unit();
  /// A generator for a sub-task, independent of this one's later output.
  Random split() { return Random(next()); }

  template <typename T> void shuffle(std::vector<T> &V) {
    for (size_t I = V.size(); I > 1; --I)
      std::swap(V[I - 1], V[below(I)]);
  }

private:
  uint64_t S[4];
};

} // namespace metacu::tune

#endif
