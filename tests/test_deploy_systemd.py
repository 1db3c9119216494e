"""docs/deploy/colorclash@.service and colorclash.env, the systemd example of
docs/deployment.md: a unit systemd accepts, whose settings the server knows."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path

import pytest

from colorclash.server.config import COMMAND_LINE_ENV, Settings

DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy"
UNIT = DEPLOY / "colorclash@.service"
ENV = DEPLOY / "colorclash.env"
KNOWN = {f"COLORCLASH_{f.name.upper()}" for f in fields(Settings)} | COMMAND_LINE_ENV


def _variables(text: str) -> set[str]:
    return set(re.findall(r"\b(COLORCLASH_[A-Z_]+)=", text))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_unit(tmp_path):
    # (verify an instance; the unit's own user, binary and env file need not exist here)
    unit = tmp_path / "colorclash@8001.service"
    text = UNIT.read_text()
    unit.write_text(text.replace("/opt/colorclash/.venv/bin/colorclash", shutil.which("true")))
    out = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                         text=True, timeout=60)
    problems = [line for line in (out.stdout + out.stderr).splitlines()
                if "colorclash@" in line and "EnvironmentFile" not in line]
    assert out.returncode == 0 and problems == [], out.stdout + out.stderr


def test_the_units_and_env_files_settings_are_the_servers():
    unit, env = UNIT.read_text(), ENV.read_text()
    assert _variables(unit) | _variables(env) <= KNOWN, (_variables(unit) | _variables(env)) - KNOWN
    assert "ExecStart=/opt/colorclash/.venv/bin/colorclash serve\n" in unit  # no --store
    assert "EnvironmentFile=/etc/colorclash.env" in unit and "LimitNOFILE=" in unit
    assert "COLORCLASH_STORE=sqlite:////var/lib/colorclash/rooms.sqlite3" in env


def test_the_documents_name_the_units_the_example_ships():
    """The restore steps said `systemctl stop colorclash`, a unit that does not exist (the
    example's are colorclash@PORT): the stop failed and the next line moved the store from
    under the running server (an operator review)."""
    root = DEPLOY.parent.parent
    texts = [p.read_text() for p in (root / "README.md", *sorted((root / "docs").glob("*.md")),
                                     UNIT)]
    named = {m for t in texts for m in re.findall(
        r"systemctl (?:[a-z-]+ )+(?:--now )?'?(colorclash[^\s`'.,)]*)", t)}
    assert named, "no systemctl line found: the pattern is wrong"
    assert all(re.fullmatch(r"colorclash@(\d+|\*)", n) for n in named), named
