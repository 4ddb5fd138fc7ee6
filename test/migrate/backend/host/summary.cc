// C++ the host compiler builds without metacu: the header it shares with
// the kernels must stay C++ for it.
#include "../common/shared.h"

int bk_summary(int x) { return bk_lanes(x) * bk_step() + bk_line() + bk_popc(7u); }
