"""Whether the program showing the board is a web browser, by the system's desktop entries."""

from pathlib import Path

import pytest
from xlive import run_beside_xdemineur

from bot.agent.programs import web_browser


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
    script = (
        "from bot.input import PyAutoGuiInput\n"
        "mouse = PyAutoGuiInput()\n"
        "print(mouse.program_at(20, 40), mouse.program_at(1000, 700))\n"
    )
    run = run_beside_xdemineur(script)
    assert run.returncode == 0, run.stderr
    shown, nothing = run.stdout.splitlines()[-1].split()  # python-xlib may warn on stdout first
    assert Path(shown).name == "xdemineur" and nothing == "None"
