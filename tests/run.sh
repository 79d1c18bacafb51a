#!/bin/sh
# run.sh: the graft run command (driver/run.c): models in tests/run/.
. "${srcdir:-.}/tests/lib.sh"
"$GRAFT" run >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "graft run with no model is a usage error"
done_testing
