// metacu/detail/host_api.h - how a generator program talks to metacu.
//
// The metacu tool fills in one instance of this C struct (metacu_host)
// before the generator program runs; the program emits everything through
// it. Shared by the tool and metacu/detail/generator.h so the two can never
// disagree on its layout.
#ifndef METACU_DETAIL_HOST_API_H
#define METACU_DETAIL_HOST_API_H

#include <cstddef>
#include <cstdint>

extern "C" {
// The preprocessor line a codegen branch opens or closes, over the passes
// whose bits are set in the mask that goes with it.
enum metacu_directive_kind {
  METACU_DIRECTIVE_IF,    // #if
  METACU_DIRECTIVE_ELIF,  // #elif
  METACU_DIRECTIVE_ELSE,  // #else
  METACU_DIRECTIVE_ENDIF, // #endif
};

struct metacu_host_api {
  void *ctx;
  // Copy input bytes [begin, end) to the output. Nonzero: generation must
  // stop (the tool has recorded why).
  int (*text)(void *ctx, unsigned begin, unsigned end);
  // Write generated text attributed to input offset `at`. Nonzero: as for
  // text.
  int (*code)(void *ctx, unsigned at, const char *s, size_t n);
  // A preprocessor line over a mask of passes.
  void (*directive)(void *ctx, unsigned at, metacu_directive_kind kind,
                    uint64_t mask);
  // An error at input offset `at`, or (gen_line != 0) at a position of the
  // generator program, which the tool maps back to the input.
  void (*error)(void *ctx, unsigned at, unsigned gen_line, unsigned gen_col,
                const char *msg);
  // A data file meta code read, for the dependency file.
  void (*depend)(void *ctx, const char *path);
  // Directory of the input file: data file paths are relative to it.
  const char *input_dir;
  // The compilation passes: 0 for the host, then each --arch value.
  const int *passes;
  unsigned npasses;
  // Where the program records the input offset of the meta statement it is
  // running: memory the tool can still read if the program crashes, hangs
  // or exits, to say where.
  volatile uint64_t *running;
};
extern metacu_host_api metacu_host;
}

// The tool gathers the program's global initializers into one function,
// METACU_INITIALIZERS, and has the program's METACU_RUN_INITIALIZERS call
// it inside a handler: an exception escaping a namespace-scope meta
// variable's initializer is reported like any other, and never unwinds
// through the interpreter's frames.
#define METACU_INITIALIZERS "__metacu_initializers"
#define METACU_RUN_INITIALIZERS "__metacu_run_initializers"

#endif
