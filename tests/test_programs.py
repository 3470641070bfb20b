"""Whether the program showing the board is a web browser, by the system's desktop entries."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.agent.programs import web_browser
from harness.realclients import ClientUnavailableError, VirtualDisplay, find_program

ROOT = Path(__file__).resolve().parent.parent


def entry(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.desktop").write_text("[Desktop Entry]\nType=Application\nName=X\n" + text)


def test_a_program_is_a_browser_when_an_entry_running_it_says_so(tmp_path):
    apps = tmp_path / "apps"
    entry(apps, "browser", "Exec=/usr/bin/webby %U\nMimeType=text/html;x-scheme-handler/https;\n")
    entry(apps, "webby-app", "Exec=webby --profile games\nCategories=Game;\n")  # runs it too: no matter
    entry(apps, "mines", "Exec=env LANG=C mines-game --big\nCategories=Game;LogicGame;\n")
    entry(apps, "mines-actions", "Exec=other\n[Desktop Action Web]\nExec=webby2 https://example.org\n")
    assert web_browser(Path("/opt/webby/webby"), [apps]) is True
    assert web_browser(Path("/usr/games/mines-game"), [apps]) is False
    assert web_browser(Path("/usr/games/unlisted"), [apps]) is None
    assert web_browser(Path("/usr/bin/webby2"), [apps]) is None  # an action's Exec is not the entry's
    assert web_browser(None, [apps]) is None and web_browser(Path("/x/mines-game"), [tmp_path / "no"]) is None


def test_a_program_is_matched_by_the_file_its_path_links_to(tmp_path):
    apps = tmp_path / "apps"
    entry(apps, "browser", "Exec=webby %U\nCategories=Network;WebBrowser;\n")
    real = tmp_path / "lib" / "webby"
    real.parent.mkdir()
    real.write_text("")
    link = tmp_path / "bin" / "wb"
    link.parent.mkdir()
    link.symlink_to(real)
    assert web_browser(link, [apps]) is True


@pytest.mark.live
def test_the_program_showing_a_window_is_known_on_x11():
    """The X server says which program shows a point of the screen: xdemineur (a plain Xlib program that
    gives no process id, named by its window's class), and nothing where no window is."""
    try:
        xdemineur = find_program("xdemineur")
    except ClientUnavailableError:
        pytest.skip("xdemineur or Xvfb is not installed")
    script = (
        "from bot.input import PyAutoGuiInput\n"
        "mouse = PyAutoGuiInput()\n"
        "print(mouse.program_at(20, 40), mouse.program_at(1000, 700))\n"
    )
    with VirtualDisplay(1100, 800) as display:
        client = subprocess.Popen([xdemineur], env=display.env, stderr=subprocess.DEVNULL)
        try:
            time.sleep(2)
            env = dict(display.env, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
            run = subprocess.run(
                [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60, cwd=ROOT
            )
        finally:
            client.kill()
            client.wait()
    assert run.returncode == 0, run.stderr
    shown, nothing = run.stdout.splitlines()[-1].split()  # python-xlib may warn on stdout first
    assert Path(shown).name == "xdemineur" and nothing == "None"
