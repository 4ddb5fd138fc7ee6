#!/usr/bin/env bash
# Checks of the metacu runtime headers that need nvcc (or a host compiler
# parsing them outside CUDA). One mode per CTest test:
#
#   check_unroll_ptx.sh ptx     NVCC INCLUDE_DIR WORK_DIR
#       unroll_for in a template kernel gives the same PTX as the body written
#       out by hand, with no branch and no local memory.
#   check_unroll_ptx.sh reject  NVCC INCLUDE_DIR WORK_DIR
#       loops unroll_for cannot unroll stop at its static_assert.
#   check_unroll_ptx.sh compile NVCC INCLUDE_DIR WORK_DIR
#       runtime_compile_test.cu compiles with nvcc -c.
#   check_unroll_ptx.sh run     NVCC INCLUDE_DIR WORK_DIR
#       runtime_compile_test.cu links and passes its self-checks (the
#       loaded_arch part only where a CUDA device is present).
#   check_unroll_ptx.sh host    CXX  INCLUDE_DIR WORK_DIR CUDA_INCLUDE_DIR
#       runtime.h parses as plain C++, as metacu's interpreter reads it.
set -euo pipefail

mode=$1 compiler=$2 include=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
nvcc_flags=(-std=c++17 -I"$include")

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The body of one .entry, its name masked so two kernels can be compared.
entry_body() {
  awk -v head=".entry $2(" '
    index($0, head) { on = 1 }
    on { print }
    on && /^}$/ { exit }' "$1" | sed "s/$2/KERNEL/g"
}

case $mode in
ptx)
  ptx=$work/unroll_ptx_test.ptx
  "$compiler" "${nvcc_flags[@]}" -ptx -arch=sm_80 "$here/unroll_ptx_test.cu" -o "$ptx"
  unrolled=$(grep -o '\.entry _Z[0-9]*via_unroll_for[A-Za-z0-9_]*' "$ptx" | cut -d' ' -f2)
  by_hand=$(grep -o '\.entry _Z[0-9]*by_hand[A-Za-z0-9_]*' "$ptx" | cut -d' ' -f2)
  [[ -n $unrolled && -n $by_hand ]] || fail "kernels missing from $ptx"
  entry_body "$ptx" "$unrolled" >"$work/unrolled.body"
  entry_body "$ptx" "$by_hand" >"$work/by_hand.body"
  diff -u "$work/by_hand.body" "$work/unrolled.body" ||
    fail "unroll_for's PTX differs from the hand-unrolled kernel's"
  loads=$(grep -c 'ld\.global\.f32' "$work/unrolled.body" || true)
  [[ $loads == 4 ]] || fail "expected 4 loads in $unrolled, found $loads"
  ! grep -E '[[:space:]]bra|\.local|__local_depot' "$work/unrolled.body" ||
    fail "branch or local memory in $unrolled"
  echo "PTX of $unrolled equals $by_hand's: 4 loads, no branch, no local memory"
  ;;

reject)
  # Each case: the loop's template arguments, then the expected message.
  cases=(
    "int, 0, 4, 0, metacu::loop_cmp::lt|the step is zero"
    "int, 0, 5, 2, metacu::loop_cmp::ne|does not end within 65536 trips"
    "int, 0, 4, -1, metacu::loop_cmp::lt|does not end within 65536 trips"
    "signed char, 100, 127, 10, metacu::loop_cmp::lt|overflows its type"
    "bool, false, true, true, metacu::loop_cmp::lt|must be an integer"
  )
  # The harness itself must compile, or every case would "fail" for nothing.
  cases=("int, 0, 4, 1, metacu::loop_cmp::lt|" "${cases[@]}")
  for c in "${cases[@]}"; do
    args=${c%%|*} expected=${c#*|}
    src=$work/reject.cu
    cat >"$src" <<EOF
#include <metacu/select.h>
__global__ void k(int *p) {
  metacu::unroll_for<$args>([&](auto i) { p[0] += int(decltype(i)::value); });
}
EOF
    if out=$("$compiler" "${nvcc_flags[@]}" -arch=sm_80 -c "$src" -o "$work/reject.o" 2>&1); then
      [[ -z $expected ]] || fail "unroll_for<$args> compiled; expected '$expected'"
    else
      [[ -n $expected ]] || fail "unroll_for<$args> did not compile: $out"
      grep -qF "metacu::unroll_for: " <<<"$out" && grep -qF "$expected" <<<"$out" ||
        fail "unroll_for<$args>: expected '$expected' in: $out"
    fi
    echo "ok: unroll_for<$args>${expected:+ -> $expected}"
  done
  ;;

compile)
  "$compiler" "${nvcc_flags[@]}" -arch=sm_80 -c "$here/runtime_compile_test.cu" \
    -o "$work/runtime_compile_test.o"
  ;;

run)
  "$compiler" "${nvcc_flags[@]}" -arch=sm_80 "$here/runtime_compile_test.cu" \
    -o "$work/runtime_compile_test"
  "$work/runtime_compile_test"
  ;;

host)
  cuda_include=$5
  for header in select.h runtime.h; do
    "$compiler" -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ \
      -I"$include" -I"$cuda_include" -include "metacu/$header" /dev/null
    echo "ok: metacu/$header parses as C++ with $compiler"
  done
  ;;

*)
  fail "unknown mode '$mode'"
  ;;
esac
