int x = R"(@meta for)"; // @meta
/* @( */ char c = '@';
#define A(x) x \
  + 1
@meta int y = 1;
