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
  // Copy input bytes [begin, end) to the output.
  void (*text)(void *ctx, unsigned begin, unsigned end);
  // Write generated text attributed to input offset `at`.
  void (*code)(void *ctx, unsigned at, const char *s, size_t n);
  // A preprocessor line over a mask of passes.
  void (*directive)(void *ctx, unsigned at, metacu_directive_kind kind,
                    uint64_t mask);
  // An error at input offset `at`, or (gen_line != 0) at a position of the
  // generator program, which the tool maps back to the input.
  void (*error)(void *ctx, unsigned at, unsigned gen_line, unsigned gen_col,
                const char *msg);
  // Reports the errors so far and ends the process (an exception escaped a
  // namespace-scope meta declaration, where nothing can catch it).
  void (*fatal)(void *ctx);
  // A data file meta code read, for the dependency file.
  void (*depend)(void *ctx, const char *path);
  // Directory of the input file: data file paths are relative to it.
  const char *input_dir;
  // The compilation passes: 0 for the host, then each --arch value.
  const int *passes;
  unsigned npasses;
};
extern metacu_host_api metacu_host;
}

#endif
