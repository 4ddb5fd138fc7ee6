// A dialect header that includes the file that includes it
// (errors/dialect_include_cycle.cu), without a guard.
@meta int cycle_value = 1;
#include "../dialect_include_cycle.cu"
