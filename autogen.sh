#!/bin/sh
# autogen.sh: generate configure and Makefile.in from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf -fi
# automake ships the TAP driver but does not install it by itself
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
chmod +x build-aux/tap-driver.sh
