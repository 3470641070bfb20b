"""Whether the program showing the board is a web browser, from the system's own desktop entries.

Why: ``--new-game auto`` may guess keys, and Ctrl+R and Ctrl+N, "play again" and "new game" in many
desktop programs, make a browser reload its page (JSMinesweeper came back in its analysis mode) or
open a window over the board. Those keys are guessed only for a program known not to be a browser.
No list of browsers is kept here: each installed program's desktop entry (freedesktop.org, under
``$XDG_DATA_HOME`` and ``$XDG_DATA_DIRS``) says what it is, a browser by its ``WebBrowser`` category,
by handling ``http``/``https`` links, or by a web address it is started on. A program no entry names
is not known either way.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Iterable
from pathlib import Path

BROWSER_CATEGORY = "WebBrowser"
BROWSER_SCHEMES = ("x-scheme-handler/http", "x-scheme-handler/https")


def desktop_dirs() -> list[Path]:
    """Where desktop entries are installed: ``$XDG_DATA_HOME`` and ``$XDG_DATA_DIRS`` (with their
    defaults), each's ``applications`` folder."""
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    data = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    return [Path(d) / "applications" for d in [home, *data.split(":")] if d]


def entry_fields(text: str) -> dict[str, str]:
    """The keys of a desktop entry's ``[Desktop Entry]`` group (its actions' groups left out).

    >>> entry_fields("[Desktop Entry]\\nExec=mines %U\\n[Desktop Action New]\\nExec=mines --new")
    {'Exec': 'mines %U'}
    """
    fields: dict[str, str] = {}
    group = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            group = line
        elif group == "[Desktop Entry]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            fields.setdefault(key.strip(), value.strip())
    return fields


def entry_programs(fields: dict[str, str]) -> set[str]:
    """The names of the programs an entry runs (``Exec``'s and ``TryExec``'s, past ``env VAR=...``).

    >>> sorted(entry_programs({"Exec": "env A=1 /usr/bin/chromium %U", "TryExec": "chromium-browser"}))
    ['chromium', 'chromium-browser']
    """
    names = set()
    for key in ("Exec", "TryExec"):
        try:
            words = shlex.split(fields.get(key, ""))
        except ValueError:
            continue
        if words and Path(words[0]).name == "env":
            words = [w for w in words[1:] if "=" not in w]
        if words:
            names.add(Path(words[0]).name)
    return names


def is_browser_entry(fields: dict[str, str]) -> bool:
    """Whether a desktop entry runs a web browser: its category, the web links it opens, or a web
    address it is started on (a web page installed as an app: ``chromium --app=https://...``).

    >>> is_browser_entry({"Exec": "chromium --app=https://example.org/mines", "Categories": "Game;"})
    True
    >>> is_browser_entry({"Exec": "sgt-mines", "Categories": "Game;LogicGame;"})
    False
    """
    categories = fields.get("Categories", "").split(";")
    types = fields.get("MimeType", "").split(";")
    web = "http://" in fields.get("Exec", "") or "https://" in fields.get("Exec", "")
    return web or BROWSER_CATEGORY in categories or any(scheme in types for scheme in BROWSER_SCHEMES)


def web_browser(program: Path | None, dirs: Iterable[Path] | None = None) -> bool | None:
    """Whether ``program`` (an executable) is a web browser by the desktop entries that run it: True
    when one says so, False when some run it and none says so, None when none runs it (not known).

    A program is matched by its file name, or by the name of the file it links to; a browser often
    runs from a wrapper of its own name (Debian's ``/usr/bin/chromium`` starts
    ``/usr/lib/chromium/chromium``).
    """
    if program is None:
        return None
    names = {program.name}
    with contextlib.suppress(OSError):
        names.add(program.resolve().name)
    found = False
    for folder in desktop_dirs() if dirs is None else dirs:
        try:
            entries = sorted(folder.glob("*.desktop"))
        except OSError:
            continue
        for entry in entries:
            try:
                fields = entry_fields(entry.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            if not names & entry_programs(fields):
                continue
            if is_browser_entry(fields):
                return True
            found = True
    return False if found else None
