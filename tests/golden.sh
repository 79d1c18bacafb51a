#!/bin/sh
# golden.sh: graft's golden tests of the Relay text format (tests/golden/).
# See golden() in tests/lib.sh for the format.
. "${srcdir:-.}/tests/lib.sh"
golden tests/golden relay
done_testing
