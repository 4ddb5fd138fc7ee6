// Spaces whose blocks can pass 1024 threads, for the test of the default
// limit (tune_space::max_threads_per_block): Kernel Tuner's parameter names,
// a launch, and a limit set by hand.
#include <cuda_runtime.h>
#include <metacu/runtime.h>

@meta metacu::tune_space names =
    metacu::tune_space("names")
        .param("block_size_x", {32, 256, 1024})
        .param("block_size_y", {1, 2, 8})
        .problem_size({256})
        .tolerance(0);

@meta metacu::tune_space launched =
    metacu::tune_space("launched")
        .param("threads", {512, 1024, 2048})
        .launch([](const metacu::json& p) { return metacu::tune_launch{{p["threads"].as_int()}, {1}}; })
        .problem_size({256})
        .tolerance(0);

@meta metacu::tune_space limited =
    metacu::tune_space("limited")
        .param("block_size_x", {32, 256, 1024})
        .param("block_size_y", {1, 2, 8})
        .max_threads_per_block(256)
        .problem_size({256})
        .tolerance(0);

@meta metacu::tune_space unlimited =
    metacu::tune_space("unlimited")
        .param("block_size_x", {32, 256, 1024})
        .param("block_size_y", {1, 2, 8})
        .max_threads_per_block(0)
        .problem_size({256})
        .tolerance(0);

@meta for (const metacu::tune_space* s : {&names, &launched, &limited, &unlimited})
  @meta (void)metacu::tune_candidates(*s);
