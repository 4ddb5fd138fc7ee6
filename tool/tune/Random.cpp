//===- Random.cpp - The tuner's pseudo-random numbers ---------------------===//
#include "Random.h"

using namespace metacu::tune;

static uint64_t splitmix64(uint64_t &X) {
  uint64_t Z = (X += 0x9e3779b97f4a7c15ULL);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
  return Z ^ (Z >> 31);
}

static uint64_t rotl(uint64_t X, int K) { return (X << K) | (X >> (64 - K)); }

Random::Random(uint64_t Seed) {
  for (uint64_t &Word : S)
    Word = splitmix64(Seed);
}

uint64_t Random::next() {
  uint64_t Result = rotl(S[1] * 5, 7) * 9;
  uint64_t T = S[1] << 17;
  S[2] ^= S[0];
  S[3] ^= S[1];
  S[1] ^= S[2];
  S[0] ^= S[3];
  S[2] ^= T;
  S[3] = rotl(S[3], 45);
  return Result;
}

uint64_t Random::below(uint64_t N) {
  // Rejection of the top partial range keeps every result equally likely.
  uint64_t Limit = UINT64_MAX - UINT64_MAX % N;
  uint64_t X;
  do
    X = next();
  while (X >= Limit);
  return X % N;
}

double Random::unit() { return double(next() >> 11) * 0x1.0p-53; }
