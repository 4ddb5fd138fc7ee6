//===- RandomSample.cpp - Random configurations, each once ----------------===//
//
// The baseline any search has to beat: without a model of the space, how
// far does luck get within the budget?
//
//===----------------------------------------------------------------------===//
#include "LocalSearch.h"
#include "Strategy.h"

#include "llvm/ADT/DenseSet.h"
#include <vector>

using namespace metacu::tune;

namespace {
class RandomSample : public Strategy {
public:
  void search(Evaluator &E, Random &R) override {
    size_t Batch = std::max(1u, E.batchSize());
    while (!E.done()) {
      // Distinct within the batch too, so every one is a new evaluation.
      std::vector<uint32_t> Chunk;
      llvm::DenseSet<uint32_t> InChunk;
      size_t Unknown = E.space().size() - E.evaluations();
      while (Chunk.size() < std::min(Batch, Unknown)) {
        uint32_t C = randomUnevaluated(E, R);
        if (InChunk.insert(C).second)
          Chunk.push_back(C);
      }
      E.evaluate(Chunk);
    }
  }
};
} // namespace

std::unique_ptr<Strategy> metacu::tune::createRandomSample() {
  return std::make_unique<RandomSample>();
}
