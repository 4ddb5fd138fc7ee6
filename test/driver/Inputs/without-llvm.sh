# unshare -m bash without-llvm.sh PACKAGE COMMAND...
# Runs COMMAND where LLVM is not: in this mount namespace, the system's
# copies of the libraries PACKAGE carries (PACKAGE.txt) become empty files
# and Clang's builtin headers an empty folder. Libraries bash and env need
# stay, or nothing would start.
set -eu
pkg=$1
shift
empty=$(mktemp -d)
mkdir "$empty/dir"
touch "$empty/file"
keep=" $(ldd /bin/bash /usr/bin/env | awk '/=>/ {print $1}' | tr '\n' ' ') "
while read -r name path; do
  case "$keep" in *" $name "*) continue ;; esac
  mount --bind "$empty/file" "$path"
done < <(awk '/^  lib/ {print $1, $2}' "$pkg/PACKAGE.txt")
headers=$(sed -n 's/^Clang builtin headers: .* (from \(.*\))$/\1/p' "$pkg/PACKAGE.txt")
mount --bind "$empty/dir" "$headers"
exec "$@"
