#!/bin/sh
# rewrite.sh: rewrite tests on IR text (tests/rewrite/): each model names
# the rulesets it runs with graft --rules, and its expected output.
. "${srcdir:-.}/tests/lib.sh"
golden tests/rewrite relay
done_testing
