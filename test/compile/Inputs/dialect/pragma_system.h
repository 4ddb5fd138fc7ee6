#pragma once
// A user header that makes itself a system header, as CCCL's do: the
// preprocessor then counts what it includes as system headers too.
#pragma GCC system_header
#include "pragma_dialect.cuh"
