#!/bin/sh
# headers.sh: every public header (GRAFT_HEADERS, what make install puts
# in $(includedir)/graft) compiles on its own, included as <graft/NAME>,
# as C11 with -Wall -Wextra -pedantic -Werror and as C++ (many NPU
# toolchains are C++): declarations only, so -fsyntax-only.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFT_HEADERS:?GRAFT_HEADERS must list the public headers}"
cc=${CC:-cc}
cxx=${CXX:-c++}

# the installed layout: one folder graft/ holding every header
mkdir "$tmpdir/graft"
for h in $GRAFT_HEADERS; do
	if [ -f "$srcdir/$h" ]; then
		ln -s "$(cd "$srcdir" && pwd)/$h" "$tmpdir/graft/${h##*/}"
	else
		ln -s "$(cd "${builddir:-.}" && pwd)/$h" "$tmpdir/graft/${h##*/}"
	fi
done
n=0
for h in $GRAFT_HEADERS; do
	b=${h##*/}
	case "$b" in *.def) continue ;; esac
	printf '#include <graft/%s>\ntypedef int graft_header_test;\n' "$b" >"$tmpdir/t.c"
	"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$tmpdir" "$tmpdir/t.c" 2>"$tmpdir/err"
	st=$?
	ok "$st" "<graft/$b> compiles on its own as C11 -Wall -Wextra -pedantic -Werror"
	[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 10
	if command -v "$cxx" >/dev/null 2>&1; then
		cp "$tmpdir/t.c" "$tmpdir/t.cpp"
		"$cxx" -std=c++11 -Wall -Wextra -Werror -fsyntax-only -I"$tmpdir" "$tmpdir/t.cpp" 2>"$tmpdir/err"
		st=$?
		ok "$st" "<graft/$b> compiles on its own as C++11"
		[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 10
	else
		ok 1 "<graft/$b> as C++: no C++ compiler ($cxx): apt-get install g++"
	fi
	n=$((n + 1))
done
# the umbrella header and the version macros
printf '#include <graft/graft.h>\n#if GRAFT_VERSION < 100\n#error version\n#endif\nconst char *v = GRAFT_VERSION_STRING;\n' >"$tmpdir/v.c"
"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -c -I"$tmpdir" "$tmpdir/v.c" -o "$tmpdir/v.o" 2>"$tmpdir/err"
ok $? "<graft/graft.h> gives GRAFT_VERSION and GRAFT_VERSION_STRING"
ok "$([ "$n" -ge 13 ]; echo $?)" "$n public headers compiled"
done_testing
