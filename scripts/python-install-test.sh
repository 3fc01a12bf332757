#!/bin/sh
# `pip install ./clients/python` as a user would do it, then the package's own tests against the
# installed copy (not the checkout's): the package really installs, with no network and nothing
# beyond the standard library at run time. Debian's python3 (the system's, whatever python3 comes
# first on PATH) with python3-venv, -pip, -setuptools and -wheel, installed by `make` when missing.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
python=/usr/bin/python3
[ -x "$python" ] || python=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
# A copy: pip's setuptools build writes build/ and *.egg-info beside the sources.
cp -r "$repo/clients/python" "$work/src"
rm -rf "$work/src/build" "$work/src"/*.egg-info
# --system-site-packages: Debian's setuptools and wheel build it; --no-index: nothing is fetched.
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-index --no-build-isolation "$work/src"
mkdir "$work/run"
cp -r "$repo/clients/python/tests" "$work/run/tests"
cd "$work/run"
"$work/venv/bin/python" - <<'PY'
import importlib.metadata, penkit, sys
where = penkit.__file__
if "site-packages" not in where:
    sys.exit(f"penkit imported from {where}, not from the installed package")
print(f"installed: penkit {importlib.metadata.version('penkit')} in the venv's site-packages")
PY
PENKIT_FIXTURES="$repo/Tests/Fixtures" \
    "$work/venv/bin/python" -m unittest discover -s tests -t .
