// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: %metacu %s -o %t/a/k.gen.cu --arch 75,80,90
// RUN: %metacu %s -o %t/b/k.gen.cu --arch 90,75,80
// RUN: cmp %t/a/k.gen.cu %t/b/k.gen.cu
// Same input and options give the same bytes (the order of --arch does not
// matter: targets are sorted).
#include <map>
#include <string>
@meta std::map<std::string, int> m { {"b", 2}, {"a", 1}, {"c", 3} };
__global__ void k(int* x) {
  @meta for (const auto& [key, v] : m)
    x[@(v)] = @(key.size());
}
