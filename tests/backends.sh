#!/bin/sh
# backends.sh: the backends agree: models in tests/backends/ run on ref, c
# and llvm.
. "${srcdir:-.}/tests/lib.sh"
"$GRAFT" run --backend nosuch x.relay >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "an unknown backend is refused"
done_testing
