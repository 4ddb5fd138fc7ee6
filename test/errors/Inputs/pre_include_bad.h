// Given with -include by errors/pre_include.cu: does not compile.
constexpr int from_pre_include = ;
