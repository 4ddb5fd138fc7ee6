//===- BruteForce.cpp - Every configuration, in enumeration order ---------===//
//
// The reference the other strategies are measured against, and the way to
// learn a space's optimum; with a journal it can span several runs.
//
//===----------------------------------------------------------------------===//
#include "Strategy.h"

#include <numeric>
#include <vector>

using namespace metacu::tune;

namespace {
class BruteForce : public Strategy {
public:
  void search(Evaluator &E, Random &) override {
    size_t Batch = std::max(1u, E.batchSize());
    std::vector<uint32_t> Chunk;
    for (size_t From = 0; From < E.space().size() && !E.done(); From += Batch) {
      Chunk.resize(std::min(Batch, E.space().size() - From));
      std::iota(Chunk.begin(), Chunk.end(), uint32_t(From));
      E.evaluate(Chunk);
    }
  }
};
} // namespace

std::unique_ptr<Strategy> metacu::tune::createBruteForce() {
  return std::make_unique<BruteForce>();
}
