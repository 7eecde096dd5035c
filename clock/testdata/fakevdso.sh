#!/bin/sh
# Rebuilds fakevdso.so, the stand-in vDSO of the symbol lookup tests.
set -e
cd "$(dirname "$0")"
gcc -O2 -fPIC -shared -nostdlib -Wl,--version-script=fakevdso.lds -Wl,--hash-style=both \
	-Wl,-z,max-page-size=4096 -Wl,-z,noseparate-code -Wl,--build-id=none -s -o fakevdso.so fakevdso.c
