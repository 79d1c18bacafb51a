#!/bin/sh
# partition.sh: partitioning tests on IR text (tests/partition/): each
# model names its graft --target command, and its expected output (the
# partitioned module, and --explain's reasons on standard error).
. "${srcdir:-.}/tests/lib.sh"
golden tests/partition relay
done_testing
