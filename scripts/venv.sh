#!/usr/bin/env bash
# Sourced by serve.sh and test.sh: make (once) and use the project's own virtualenv, .venv.
#
#   source scripts/venv.sh EXTRAS     # EXTRAS: "" or "test"
#
# Never installs into the Python found on the PATH (Debian's python3 is "externally
# managed", PEP 668). The virtualenv is made from the first Python 3.11+ found: the active
# virtualenv's python if there is one, else python3, python3.13, python3.12, python3.11.
# If the venv module is missing (Debian's python3-venv), root installs it with apt-get;
# anyone else is told what to install. A second run reuses .venv and installs nothing
# unless pyproject.toml or the extras changed (a stamp file keeps their hash).

_cc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_cc_venv="$_cc_root/.venv"
_cc_extras="${1:-}"

_cc_find_python() {
    local c
    for c in ${VIRTUAL_ENV:+"$VIRTUAL_ENV/bin/python"} python3 python3.13 python3.12 python3.11; do
        if command -v "$c" >/dev/null 2>&1 &&
           "$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

_cc_make_venv() {
    local py
    py="$(_cc_find_python)" || {
        echo "error: Color Clash needs Python 3.11 or newer (python3 --version); install it first" >&2
        return 1
    }
    if ! "$py" -m venv --help >/dev/null 2>&1 || ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
        local ver pkg
        ver="$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
        pkg="python${ver}-venv"
        if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
            echo "installing $pkg (Python's venv module) with apt-get ..." >&2
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null ||
                DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null || {
                    echo "error: could not install $pkg; install it, then run this again" >&2
                    return 1
                }
        else
            echo "error: Python's venv module is missing: install it first (Debian/Ubuntu: sudo apt-get install $pkg)" >&2
            return 1
        fi
    fi
    rm -rf "$_cc_venv"
    "$py" -m venv "$_cc_venv" || { echo "error: could not create $_cc_venv" >&2; return 1; }
}

if [ ! -x "$_cc_venv/bin/python" ] || ! "$_cc_venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    _cc_make_venv || exit 1
fi

_cc_want="$( (cat "$_cc_root/pyproject.toml"; echo "extras=$_cc_extras") | sha256sum | cut -d' ' -f1)"
_cc_stamp="$_cc_venv/.colorclash-installed"
if ! grep -qx "$_cc_want" "$_cc_stamp" 2>/dev/null; then
    _cc_spec="$_cc_root"
    [ -n "$_cc_extras" ] && _cc_spec="$_cc_root[$_cc_extras]"
    echo "installing Color Clash${_cc_extras:+ with [$_cc_extras]} into .venv ..." >&2
    "$_cc_venv/bin/python" -m pip install -q --disable-pip-version-check -e "$_cc_spec" || {
        echo "error: installing into .venv failed (see above)" >&2
        exit 1
    }
    # Keep every hash installed so far: the test extras include what serve needs.
    echo "$_cc_want" >> "$_cc_stamp"
    if [ -n "$_cc_extras" ]; then
        ( cat "$_cc_root/pyproject.toml"; echo "extras=" ) | sha256sum | cut -d' ' -f1 >> "$_cc_stamp"
    fi
fi

PY="$_cc_venv/bin/python"
export PATH="$_cc_venv/bin:$PATH"
unset _cc_spec _cc_want _cc_stamp
