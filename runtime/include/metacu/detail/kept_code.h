// metacu/detail/kept_code.h - the generator library's code that a kept
// interpreter compiles once.
//
// A long-running metacu (metacu lsp) keeps the interpreter it started with
// the generator library and the prelude, and compiles each program in a
// copy of it. Most of a program's machine code is the library's: the inline
// functions of <metacu/meta.h> and the standard library templates they
// instantiate (linkonce_odr), made again for every program. The kept
// interpreter compiles this file once, after the prelude, and never runs
// it; a program that uses the same functions then makes no machine code for
// them: the JIT keeps the first definition of a linkonce_odr symbol.
//
// The rule that makes this safe: this file names only the library's types,
// the standard library's and the prelude's (nvvm_arch_t), never a type or
// function of a user's file. A program's translation unit continues the
// kept interpreter's, so a function compiled here is the same entity in the
// program, instantiated from the same declarations, not another with the
// same name: std::vector<tile> of a user's 'tile' is the program's own,
// whatever an earlier program's 'tile' was. Every identifier of its own is
// reserved (a user's macro cannot change it).
//
// It is not for CUDA code or for meta code: only the kept interpreter reads
// it, once.
#ifndef METACU_DETAIL_KEPT_CODE_H
#define METACU_DETAIL_KEPT_CODE_H

#include <metacu/detail/generator.h>

// What programs call: a tuning space declared and read back, its tuned
// kernels and their parameters, meta values spelled, `if codegen` chains
// over the architectures, JSON read.
extern "C" void __metacu_kept_code() {
  metacu::tune_space __space =
      metacu::tune_space("kept")
          .param("a", {1, 2})
          .flag("f")
          .require(
              [](const metacu::json &__p) { return __p["a"].as_int() > 0; })
          .launch([](const metacu::json &__p) {
            return metacu::tune_launch{{__p["a"].as_int(), 1}, {1, 1}};
          })
          .problem_size({1, 2})
          .sizes({{1, 2}})
          .metric("GB/s", 1.0, metacu::tune_direction::maximize)
          .max_threads_per_block(1024)
          .tolerance(1e-5);
  metacu::tuned_kernels __kernels(__space, "kept.json",
                                  metacu::params({{"a", 1}}));
  for (const metacu::tuned_kernel &__k : __kernels) {
    const metacu::json &__p =
        __k.params(metacu::enum_values<nvvm_arch_t>().front());
    metacu::detail::splice(0, __k.name);
    metacu::detail::value(0, __p["a"].as_int());
    metacu::detail::value(0, __p["a"].get<long long>());
    metacu::detail::value(0, __p["a"].get<bool>());
    metacu::detail::value(0, 1.0f);
    metacu::detail::value(0, 1.0);
    metacu::detail::value(0, 1u);
    metacu::detail::value(0, std::string("kept"));
  }
  for (nvvm_arch_t __arch : metacu::enum_values<nvvm_arch_t>()) {
    metacu::detail::codegen_chain __chain(0);
    metacu::detail::block_end __end([&](bool) { __chain.close(); });
    __chain.branch([&](nvvm_arch_t __a) -> bool { return __a == __arch; });
    if (__chain.open(0))
      metacu::detail::code(0, " ");
  }
  metacu::json __json = metacu::json::parse("{}", "kept");
  (void)__json.is_object();
  (void)__json.items();
  (void)__json.elements();
  (void)__json.size();
  (void)__json.contains("a");
  (void)metacu::read_file("kept");
}

#endif
