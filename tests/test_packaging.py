"""Packaging: imports are declared, commands load only what they use, the wheel ships and reads its skins."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from bot.cli import COMMANDS

REPO = Path(__file__).resolve().parent.parent
INSTALLED = ("bot", "calibration")
"""The packages ``pip install`` puts on the path; harness/, benchmarks/ and tests/ stay in the checkout."""
LOCAL = {"bot", "calibration", "harness", "benchmarks", "tests"}
REAL = REPO / "tests" / "data" / "real" / "winemine"


def _pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _distribution(requirement: str) -> str:
    """``"opencv-python-headless>=4.8"`` -> ``"opencv-python-headless"``, normalised (PEP 503)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_top_levels(folder: Path) -> dict[str, Path]:
    """Every top-level module imported anywhere under ``folder`` (also inside functions), with one file."""
    found: dict[str, Path] = {}
    local = LOCAL | {p.stem for top in LOCAL for p in (REPO / top).glob("*.py")}  # e.g. tests/styles.py
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in local | {"__future__"}:
                    found.setdefault(top, path)
    return found


@pytest.mark.parametrize("folder", ["bot", "calibration", "harness", "benchmarks", "tests"])
def test_every_third_party_import_is_declared(folder):
    project = _pyproject()["project"]
    declared = {_distribution(r) for r in project["dependencies"]}
    extras = project["optional-dependencies"]
    if folder in ("harness", "benchmarks", "tests"):
        declared |= {_distribution(r) for r in extras["test"]}
    if folder == "bot":  # an optional feature's package, imported only when the feature is used
        declared |= {_distribution(r) for name, reqs in extras.items() if name != "test" for r in reqs}
    providers = packages_distributions()
    for module, path in _imported_top_levels(REPO / folder).items():
        assert module in providers, f"{path.relative_to(REPO)} imports {module!r}, which nothing installs"
        names = {_distribution(d) for d in providers[module]}
        assert names & declared, f"{path.relative_to(REPO)} imports {module!r} ({names}): not in pyproject"


def test_ci_pins_every_dependency_at_its_lowest_allowed_version():
    """``.ci/lowest.txt`` (the constraints of CI's second run) holds every dependency of ``pyproject.toml``,
    runtime and test, each at a release of its lower bound."""
    project = _pyproject()["project"]
    extras = project["optional-dependencies"].values()
    requirements = project["dependencies"] + [requirement for extra in extras for requirement in extra]
    bounds = {}
    for requirement in requirements:
        bound = re.search(r">=\s*([0-9][0-9.]*)", requirement)
        assert bound, f"{requirement}: no lower bound for CI to test"
        bounds[_distribution(requirement)] = bound.group(1)
    pins = {}
    for line in (REPO / ".ci" / "lowest.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[_distribution(name)] = version.strip()
    assert set(pins) == set(bounds)
    for name, bound in bounds.items():
        assert pins[name] == bound or pins[name].startswith(bound + "."), (name, bound, pins[name])


def test_each_command_in_the_table_is_its_module():
    modules = {p.stem for p in (REPO / "bot" / "commands").glob("*.py")} - {"__init__"}
    assert {c.module for c in COMMANDS} == modules
    for command in COMMANDS:
        module = importlib.import_module(f"bot.commands.{command.module}")
        assert (command.name, command.help) == (module.NAME, module.HELP)


def _loaded_after(code: str) -> set[str]:
    """Top-level modules loaded by ``code`` in a fresh interpreter (no display, so pyautogui would show)."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return set(result.stdout.splitlines()[-1].split())


def test_help_lists_every_command_and_imports_nothing_heavy():
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    for command in COMMANDS:
        assert re.search(rf"^\s+{command.name}\s+{re.escape(command.help[:30])}", result.stdout, re.M)
    run_help = "from bot.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    assert not _loaded_after(run_help) & {"cv2", "calibration", "pyautogui", "mss", "PIL", "numpy"}


@pytest.mark.parametrize(
    ("command", "absent"),
    [
        ("solve", {"cv2", "calibration", "pyautogui", "mss", "PIL"}),
        ("bench", {"cv2", "calibration", "pyautogui", "mss", "PIL", "ray"}),
        ("play", {"calibration", "pyautogui"}),
        ("dry-run", {"calibration", "pyautogui"}),
        ("record", {"calibration", "pyautogui"}),
    ],
)
def test_a_command_loads_only_what_it_uses(command, absent):
    run_help = (
        f"from bot.cli import main\ntry:\n    main([{command!r}, '--help'])\nexcept SystemExit:\n    pass"
    )
    assert not _loaded_after(run_help) & absent


def test_the_core_never_imports_pyautogui():
    loaded = _loaded_after("import bot, bot.vision, bot.solver, bot.agent, bot.cli")
    assert "bot" in loaded and "pyautogui" not in loaded


def test_shipped_skins_are_found_first_from_the_skin_path_then_the_user_folder(tmp_path, monkeypatch):
    from bot.skin import TEMPLATES_DIR, find_skin, list_skins

    assert TEMPLATES_DIR == REPO / "templates"  # a source checkout / editable install reads them in place
    assert {"classic", "winemine", "xdemineur"} <= set(list_skins())
    shutil.copytree(TEMPLATES_DIR / "winemine", tmp_path / "user" / "minebot" / "skins" / "winemine")
    shutil.copytree(TEMPLATES_DIR / "classic", tmp_path / "extra" / "winemine")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "user"))
    monkeypatch.delenv("MINEBOT_SKIN_PATH", raising=False)
    assert find_skin("winemine").path == tmp_path / "user" / "minebot" / "skins" / "winemine"
    monkeypatch.setenv("MINEBOT_SKIN_PATH", str(tmp_path / "extra"))
    assert find_skin("winemine").path == tmp_path / "extra" / "winemine"
    assert find_skin("xdemineur").path == TEMPLATES_DIR / "xdemineur"


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)
    assert result.returncode == 0, f"{args}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.mark.slow
def test_the_wheel_in_a_fresh_venv_reads_a_real_winemine_expert_screenshot(tmp_path):
    """Build the wheel from a copy of the source, install it (deps from the index) and read with it."""
    source = tmp_path / "source"
    junk = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", "tests")
    shutil.copytree(REPO, source, ignore=junk)
    _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source), "-w", str(tmp_path / "wheels")]
    )
    (wheel,) = (tmp_path / "wheels").glob("minebot-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    for top in INSTALLED:  # every module, also in sub-packages added later
        for path in (REPO / top).rglob("*.py"):
            assert path.relative_to(REPO).as_posix() in shipped
    for path in (REPO / "templates").glob("*/*"):
        assert "bot/" + path.relative_to(REPO).as_posix() in shipped
    for path in (REPO / "bot" / "fonts").iterdir():  # the reference digits and stroke fonts
        assert path.relative_to(REPO).as_posix() in shipped
    assert not any(name.startswith(("harness/", "tests/", "benchmarks/", "templates/")) for name in shipped)
    _run([sys.executable, "-m", "venv", str(tmp_path / "venv")])
    bin_dir = tmp_path / "venv" / ("Scripts" if sys.platform == "win32" else "bin")
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    _run([*pip, "--no-compile", str(wheel)])  # no .pyc for numpy and OpenCV: quicker

    workdir = tmp_path / "elsewhere"  # not the checkout: only the installed wheel can be imported
    workdir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "MINEBOT_SKIN_PATH")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "no-user-skins")  # only the shipped skins
    where = _run(
        [
            str(bin_dir / "python"),
            "-c",
            "import bot, bot.skin; print(bot.__file__); print(bot.skin.TEMPLATES_DIR)",
        ],
        cwd=workdir,
        env=env,
    ).stdout.split()
    venv = (tmp_path / "venv").resolve()
    assert all(Path(p).resolve().is_relative_to(venv) for p in where), where
    assert Path(where[1]).parts[-2:] == ("bot", "templates")

    shot = REAL / "expert_lost.png"
    out = _run([str(bin_dir / "minebot"), "dry-run", str(shot), "--json"], cwd=workdir, env=env).stdout
    (frame,) = json.loads(out)["frames"]
    truth = [line for line in (REAL / "expert_lost.txt").read_text().splitlines() if not line.startswith("#")]
    assert frame["skin"] == "winemine" and frame["status"] == "lost"
    assert (frame["rows"], frame["cols"], frame["mines"]) == (16, 30, 99)
    assert frame["board"] == truth
    log = tmp_path / "results.jsonl"
    play = [
        str(bin_dir / "minebot"),
        "play",
        "--client",
        "sim",
        "--level",
        "beginner",
        "--results-log",
        str(log),
    ]
    _run(play, cwd=workdir, env=env)  # the simulated client draws its board with the shipped classic skin
    assert json.loads(log.read_text().splitlines()[-1])["skin"] == "classic"
