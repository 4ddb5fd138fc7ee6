// RUN: %metacu %S/../../samples/sum_sizes/sum_sizes.cu -o %t.gen.cu --arch 75,80,90
// RUN: grep -c '^__global__ void sum_[0-9]' %t.gen.cu | FileCheck %s --check-prefix=PER-SIZE
// RUN: %nvcc -I %S/../../samples/sum_sizes -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %S/../../samples/sum_sizes/sum_sizes.cu %t.d/
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); d['entries']={k:v for k,v in d['entries'].items() if '@' not in k}; json.dump(d,open(sys.argv[2],'w'))" %S/../../samples/sum_sizes/sum_sizes.tuning.json %t.d/sum_sizes.tuning.json
// RUN: %metacu %t.d/sum_sizes.cu -o %t.d/one.gen.cu --arch 75,80,90 -I %S/../../samples/sum_sizes
// RUN: grep -c '^__global__ void sum_[0-9]' %t.d/one.gen.cu | FileCheck %s --check-prefix=ONE
// RUN: %nvcc -I %S/../../samples/sum_sizes -c -arch=sm_90 %t.d/one.gen.cu -o %t.d/one.o
// RUN: %metacu %S/../../samples/matmul_sizes/matmul_sizes.cu -o %t.mm.gen.cu --arch 75,80,90
// RUN: %nvcc -I %S/../../samples/matmul_sizes -c -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.mm.gen.cu -o %t.mm.o
// The per-size samples generate a kernel per size their tuning files
// have entries for (metacu::kernel_sizes): sum_sizes' nine sm_90 sizes,
// and one kernel when every entry serves every size.
// PER-SIZE: 9
// ONE: 1
