"""The `m2rag-bench` command line as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from m2rag_bench import __version__
from m2rag_bench.cli import main


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_console_script_is_installed() -> None:
    out = subprocess.run([sys.executable, "-m", "m2rag_bench.cli", "--help"], capture_output=True, text=True, check=True)
    assert "dataset" in out.stdout


def test_dataset_build_then_info(release: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    (release / "images" / "ELI5" / "dev_set" / "query-000001" / "aux-0.png").unlink()
    result = runner.invoke(main, ["dataset", "build", "--release", str(release), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "1 problem" in result.output and "aux_images[0].cached_image_url" in result.output
    info = runner.invoke(main, ["dataset", "info", str(tmp_path / "out"), "--json"])
    assert info.exit_code == 0, info.output
    summary = json.loads(info.stdout)
    assert summary["queries"] == 4 and summary["images"]["aux"]["total"] == 8
    assert summary["images"]["aux"]["available"] == 7


def test_dataset_build_missing_release_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "nothing").mkdir()
    result = CliRunner().invoke(main, ["dataset", "build", "--release", str(tmp_path / "nothing"), "--out",
                                       str(tmp_path / "o")])
    assert result.exit_code == 1
    assert "error:" in result.output and "dev_set.jsonl" in result.output and "Traceback" not in result.output


def test_dataset_info_unknown_name(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["dataset", "info", str(tmp_path / "no-such-dir")])
    assert result.exit_code == 1 and "dataset not found" in result.output
