#!/bin/sh
# graftc.sh: golden tests of graftc (tests/graftc/): generated code for
# the rules files that compile, the exact diagnostics for those that do not.
. "${srcdir:-.}/tests/lib.sh"
golden tests/graftc rules
done_testing
