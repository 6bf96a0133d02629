#!/bin/sh
# Prints the path of a Python 3.12 or newer for the CUBE environment (make cube; CUBE needs 3.12):
# python3.13 or python3.12 on PATH, else the newest of pyenv's versions, else one that uv installs
# where the network allows (uv itself from PyPI into the environment of the python given as $1).
# Fails, saying what to install, when there is none.
at_least_312() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; }

for name in python3.13 python3.12; do
    if command -v "$name" >/dev/null 2>&1 && at_least_312 "$name"; then command -v "$name"; exit 0; fi
done
for version in $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]* 2>/dev/null | sort -rV); do
    if at_least_312 "$version/bin/python3"; then echo "$version/bin/python3"; exit 0; fi
done
uv=$(command -v uv || true)
if [ -z "$uv" ] && [ -n "$1" ] && "$1" -m pip install --quiet uv >&2; then uv="$(dirname "$1")/uv"; fi
if [ -n "$uv" ] && "$uv" python install 3.12 >&2; then "$uv" python find 3.12; exit 0; fi
echo "make cube needs Python 3.12 or newer (CUBE's floor) and found none: install python3.12 (apt, pyenv or uv)" >&2
exit 1
