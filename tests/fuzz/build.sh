#!/bin/sh
# build.sh DIR: the libFuzzer harnesses of tests/fuzz/, built with clang,
# ASan and UBSan in the build tree DIR (made and configured here the first
# time) as DIR/tests/fuzz/fuzz-NAME.  `make fuzz` runs it.
set -eu
dir=${1:?usage: build.sh DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v clang >/dev/null || { echo "build.sh: clang is not installed (apt-get install clang)" >&2; exit 1; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# a source tree configured in place cannot host another build: then the
# build is of a copy of the files git tracks (refreshed each time)
if [ -f "$src/config.status" ]; then
	command -v git >/dev/null && git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
		{ echo "build.sh: $src is configured in place and not a git work tree: use a separate build folder" >&2; exit 1; }
	mkdir -p "$dir/src"
	(cd "$src" && git ls-files -z | xargs -0 tar cf -) | (cd "$dir/src" && tar xmf -)
	# the copy's files newer than their products: make rebuilds what changed
	top="$dir/src"
	[ -f "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1)
	cd "$top"
else
	top=$src
	cd "$dir"
fi
if [ ! -f Makefile ]; then
	"$top/configure" CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link -fno-omit-frame-pointer" \
		--enable-sanitizers --disable-shared >configure.log 2>&1 ||
		{ tail -n 20 configure.log >&2; exit 1; }
fi
make -j"$(nproc 2>/dev/null || echo 2)" fuzzers >make.log 2>&1 || { tail -n 30 make.log >&2; exit 1; }
# where run.sh looks for them
if [ "$top" != "$src" ] && [ "$(pwd)" != "$dir" ]; then
	mkdir -p "$dir/tests/fuzz"
	cp tests/fuzz/fuzz-* "$dir/tests/fuzz/"
fi
ls "$dir"/tests/fuzz/fuzz-*
