// RUN: %check-golden %s -- --arch 80
// @meta if picks one branch, @meta while loops, ranged @meta for walks a
// container and structured bindings, all at generation time.
#include <map>
#include <vector>

@meta std::vector<int> widths { 1, 2, 4 };
@meta const std::map<int, const char*> names { {1, "one"}, {2, "two"} };

__global__ void k(int* out) {
  @meta for (int w : widths) {
    @meta if (w == 1) {
      out[0] = @(w);
    } else if (w == 2) {
      out[1] = @(w * 10);
    } else {
      out[2] = w;
    }
  }
  @meta int n = 1;
  @meta while (n < 8) {
    out[@(n)] += n;
    @meta n *= 2;
  }
  @meta for (const auto& [k, v] : names)
    printf("%d %s\n", k, v);
}
