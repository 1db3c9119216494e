"""The README's first command brings the site up from a clean copy of the project.

A missing install step must fail CI, not a user: this copies the project's files (what a
clone holds, local edits included) to a fresh folder without any virtualenv, runs
``scripts/serve.sh`` with a PATH that holds only the system's folders (Debian's own
``python3``, externally managed), waits for the URL it prints and asks ``/healthz``. A
second run must reuse ``.venv`` and install nothing.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

pytestmark = pytest.mark.slow


def _project_files() -> list[str]:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if f and (ROOT / f).is_file()]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYENV_VERSION")}
    env["PATH"] = SYSTEM_PATH
    return env


def _serve(copy: Path, timeout: float, cwd: Path | None = None,
           store: str | None = None) -> tuple[str, str]:
    """Run ``copy``'s serve.sh (from ``cwd``, ``copy`` itself unless given) until /healthz
    answers; return (url line, stderr)."""
    port = _free_port()
    proc = subprocess.Popen(
        ["bash", str(copy / "scripts" / "serve.sh"), "--port", str(port), "--store",
         store or f"sqlite:///{copy / 'site.sqlite3'}"],
        cwd=cwd or copy, env=_clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    url_line = ""
    try:
        deadline = time.monotonic() + timeout
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if "http://" in line:
                url_line = line.strip()
                break
        assert url_line, f"serve.sh printed no URL; stderr:\n{proc.stderr.read() if proc.poll() is not None else ''}"
        body = b""
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    body = r.read()
                    break
            except OSError:
                time.sleep(0.2)
        assert body, "the site did not answer /healthz"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.stderr is not None
    return url_line, proc.stderr.read()


def test_serve_script_from_a_clean_copy(tmp_path):
    if not any(Path(d, "python3").exists() for d in SYSTEM_PATH.split(":")):
        pytest.skip("no system python3")
    copy = tmp_path / "colorclash"
    for name in _project_files():
        dest = copy / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest)
    assert not (copy / ".venv").exists()

    url, err = _serve(copy, timeout=600)
    assert "http://127.0.0.1:" in url
    assert (copy / ".venv" / "bin" / "python").exists(), "serve.sh must make .venv"
    assert "installing" in err

    # The second run reuses .venv: nothing to install.
    url2, err2 = _serve(copy, timeout=120)
    assert "http://127.0.0.1:" in url2
    assert "installing" not in err2, err2

    # From another folder, a relative store path is the caller's, as for `colorclash
    # serve` (the script ran it in the project's folder), and the URL line names the file.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    url3, _ = _serve(copy, timeout=120, cwd=elsewhere, store="sqlite:///mine.sqlite3")
    assert (elsewhere / "mine.sqlite3").exists() and not (copy / "mine.sqlite3").exists()
    assert f"the file {elsewhere / 'mine.sqlite3'}" in url3
