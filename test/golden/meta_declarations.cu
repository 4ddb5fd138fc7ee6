// RUN: %check-golden %s -- --arch 80
// Meta concepts and templates at namespace scope; __LINE__ and __FILE__ in
// meta code are the user's; an ordinary static_assert on meta values is
// meta code, checked at generation time.
#include <concepts>
#include <string>

@meta template <class T> concept narrow = sizeof(T) <= 2;
@meta template <class T> constexpr T twice(T x) { return x + x; }
@meta template <class T> struct boxed { T value; };

@meta int width = twice(16);
@meta bool short_is_narrow = narrow<short> && !narrow<long>;
@meta boxed<int> box { twice(3) };
@meta int line = __LINE__;
@meta std::string file = __FILE__;
@meta std::string where = std::string(__FILE__) + ":" + std::to_string(__LINE__);

static_assert(width == 32 && short_is_narrow, "meta values in static_assert");

__global__ void k(int* out, const char** names) {
  static_assert(box.value == 6, "inside a function too");
  out[0] = width + box.value + line;
  names[0] = file;
  names[1] = where;
}
