//===- Runner.cpp - What measures configurations --------------------------===//
#include "Runner.h"

#include <chrono>

using namespace metacu::tune;

Runner::~Runner() = default;

double Runner::seconds() const {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
