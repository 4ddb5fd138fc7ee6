// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// A namespace opened by a macro, as CCCL's are (THRUST_NAMESPACE_BEGIN):
// metacu's lexical view of the file does not see it open, so mirroring
// the namespaces inside it for meta code would put them at global scope,
// where 'namespace system' is a redefinition of ::system (<cstdlib>). Meta
// code uses nothing declared there, so nothing of it is mirrored.
#include <cstdlib>
#define LIB_BEGIN namespace lib {
#define LIB_END }
LIB_BEGIN
namespace system {
__device__ inline int base() { return 2; }
}
LIB_END
@meta int lanes = 3;
__global__ void k(int* x) { x[0] = lib::system::base() * @(lanes); }
// CHECK: mov.u32 {{%r[0-9]+}}, 6;
