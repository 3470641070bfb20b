"""Play real clients minebot was never built or tested for, as a new user would: ``minebot play`` with
the default ``--skin auto``, no calibration, no options fitted to the client.

A generalisation check, not a target: the clients here (GNOME Mines in its three themes, Simon
Tatham's Mines, KMines in four themes and two window sizes, minegauler in five themes and two button
sizes) are named nowhere else in the repository,
and nothing in ``bot/`` knows them. Each game gets a fresh client on a private Xvfb screen (so no
new-game handling is needed); the bot plays
it through the real pipeline (mss, the readers, the solver, pyautogui) in its own process, and its
results log says how the game ended.

    python benchmarks/unseen_clients.py --games 5            # every client
    python benchmarks/unseen_clients.py --client sgt-mines --games 10 --json out.json

Needs Debian's ``gnome-mines``, ``sgt-puzzles`` and ``kmines`` (each skipped when absent), ``xvfb`` and
``xdotool``. minegauler (PyQt6, from PyPI) is looked for as ``minegauler`` on the PATH or at ``$MINEGAULER``:
``python -m venv /tmp/mg && /tmp/mg/bin/pip install minegauler && MINEGAULER=/tmp/mg/bin/minegauler ...``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.realclients import VirtualDisplay  # noqa: E402

SCREEN = (1280, 900)
GAME_SECONDS = 150


@dataclass(frozen=True)
class Unseen:
    """How to start one client on an Expert board: its command, environment and clicks to a fresh board."""

    name: str
    program: str
    args: tuple[str, ...]
    settings: str = ""
    """GSettings keyfile text (GNOME Mines keeps its theme and window size there)."""
    start_clicks: tuple[tuple[int, int], ...] = ()
    """Clicks that bring up a fresh Expert board (GNOME Mines opens on a size menu)."""
    config: tuple[tuple[str, str], ...] = ()
    """Files written under a fresh ``XDG_CONFIG_HOME``: (relative path, text) (KMines' level and theme)."""
    window: tuple[str, ...] = ("--name", "Mines")
    """How ``xdotool search --onlyvisible`` finds the game's window."""
    size: tuple[int, int] | None = None
    """Window size to set (KMines scales its board with its window), or None to keep the client's."""
    bus: bool = False
    """The client needs a D-Bus session (KDE programs): run it under ``dbus-run-session``."""
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables the client runs with (a GTK theme, for one)."""


def _gnome(theme: str, gtk: str = "", size: tuple[int, int] = (1260, 860)) -> Unseen:
    settings = (
        f"[org/gnome/Mines]\nwindow-width={size[0]}\nwindow-height={size[1]}\n"
        f"theme='{theme}'\nuse-animations=false\nuse-question-marks=false\n"
    )
    name = (
        f"gnome-mines/{theme}"
        + (f"+{gtk}" if gtk else "")
        + ("" if size == (1260, 860) else f"@{size[0]}x{size[1]}")
    )
    env = (("GTK_THEME", gtk),) if gtk else ()
    start = (round(size[0] * 424 / 1260), round(size[1] * 690 / 860))  # the size menu's "30 x 16"
    return Unseen(name, "/usr/games/gnome-mines", (), settings, (start,), env=env)


def _kmines(theme: str, size: tuple[int, int] | None) -> Unseen:
    config = f"[KgDifficulty]\nLevel=Hard\n\n[KgTheme]\nTheme=themes/{theme}.desktop\n"
    name = f"kmines/{theme}" + (f"@{size[0]}x{size[1]}" if size else "")
    return Unseen(
        name,
        "/usr/games/kmines",
        (),
        config=(("kminesrc", config),),
        window=("--class", "kmines"),
        size=size,
        bus=True,
    )


MINEGAULER_THEMES = {  # theme: (buttons, markers, numbers), as its Game > Themes menu sets them
    "Standard": ("Standard", "Standard", "Standard"),
    "Butterfly": ("Butterfly", "Standard", "Standard"),
    "Halloween": ("Dark", "Halloween", "Dark"),
    "Textured": ("Textured", "Standard", "Standard"),
    "Christmas": ("Christmas", "Christmas", "Dark"),
}
# minegauler reads its settings from a file inside its package: write them, then start it.
MINEGAULER_LAUNCH = (
    "import sys; from minegauler.app import paths; paths.SETTINGS_FILE.write_text(sys.argv[1]); "
    "from minegauler.app.__main__ import main; sys.exit(main())"
)


def _minegauler_python() -> str:
    """The interpreter minegauler is installed for (its launcher's shebang), or a path that does not exist."""
    script = os.environ.get("MINEGAULER") or shutil.which("minegauler")
    if script and Path(script).is_file():
        first = Path(script).read_text(errors="replace").splitlines()[:1]
        if first and first[0].startswith("#!"):
            return first[0][2:].strip()
    return "/nonexistent/minegauler"


def _minegauler(theme: str, button: int) -> Unseen:
    buttons, markers, numbers = MINEGAULER_THEMES[theme]
    settings = {
        "x_size": 30,
        "y_size": 16,
        "mines": 99,
        "first_success": True,
        "btn_size": button,
        "styles": {"BUTTONS": buttons, "MARKERS": markers, "NUMBERS": numbers},
    }
    return Unseen(
        f"minegauler/{theme}@{button}px",
        _minegauler_python(),
        ("-c", MINEGAULER_LAUNCH, json.dumps(settings)),
        window=("--name", "MineGauler"),
    )


CLIENTS: dict[str, Unseen] = {
    c.name: c
    for c in (
        _gnome("default"),
        _gnome("bgcolors"),
        _gnome("classic"),
        _gnome("default", "Adwaita:dark"),
        _gnome("bgcolors", "Adwaita:dark", (900, 640)),
        Unseen("sgt-mines", "/usr/games/sgt-mines", ("30x16n99",)),
        Unseen("sgt-mines@1200x800", "/usr/games/sgt-mines", ("30x16n99",), size=(1200, 800)),
        _kmines("default", (1200, 800)),
        _kmines("default", None),
        _kmines("classic", (1200, 800)),
        _kmines("green", (1200, 800)),
        _kmines("graveyard-mayhem", (1200, 800)),
        *(_minegauler(theme, button) for theme in MINEGAULER_THEMES for button in (16, 24)),
    )
}


def _xdotool(env: dict[str, str], *args: str) -> str:
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, check=False).stdout


def _keep_focus(env: dict[str, str], window: tuple[str, ...], stop: threading.Event) -> None:
    """What a window manager does and Xvfb has none for: when no window has the keyboard (a dialog
    closed, e.g. a high-score table after Escape, and the keyboard went back to the root window), give
    it back to the game's window, so that the keys the bot presses for a new game reach it. A window
    that has the keyboard keeps it."""
    root = subprocess.run(["xwininfo", "-root"], env=env, capture_output=True, text=True, check=False).stdout
    found = re.search(r"Window id: (0x[0-9a-f]+)", root)
    root_id = str(int(found.group(1), 16)) if found else ""
    while not stop.wait(0.5):
        if _xdotool(env, "getwindowfocus").strip() not in ("", root_id):
            continue
        visible = _xdotool(env, "search", "--onlyvisible", *window).split()
        if visible:
            _xdotool(env, "windowfocus", visible[-1])


def play_one(client: Unseen, log: Path, frames: Path, seconds: float, session: int = 1) -> list[dict]:
    """``session`` games on a fresh client in one bot process (the bot starts every game after the first
    itself: the face, F2, ...): the bot's result lines (its results log), or an error line."""
    with tempfile.TemporaryDirectory() as config, VirtualDisplay(*SCREEN) as display:
        env = dict(display.env, NO_AT_BRIDGE="1", XDG_CONFIG_HOME=config, **dict(client.env))
        files = list(client.config)
        if client.settings:
            files.append(("glib-2.0/settings/keyfile", client.settings))
            env.update(GSETTINGS_BACKEND="keyfile")
        for relative, text in files:
            path = Path(config) / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        game = subprocess.Popen(
            [*(["dbus-run-session"] if client.bus else []), client.program, *client.args],
            env=env,
            cwd=config,  # a client's own files (minegauler's runtime.log) stay out of the repository
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        focus = threading.Event()  # set: the focus keeper stops
        try:
            time.sleep(4)
            windows = _xdotool(env, "search", "--onlyvisible", *client.window).split()
            if windows and client.size:
                _xdotool(env, "windowsize", "--sync", windows[-1], *map(str, client.size))
                time.sleep(1)
            if windows:  # focus the window itself, so the game does not pause when the pointer leaves it
                _xdotool(env, "windowfocus", "--sync", windows[-1])
            for x, y in client.start_clicks:
                _xdotool(env, "mousemove", str(x), str(y), "click", "1")
                time.sleep(2)
            threading.Thread(target=_keep_focus, args=(env, client.window, focus), daemon=True).start()
            before = log.read_text().count("\n") if log.exists() else 0
            bot_env = dict(os.environ, **display.env)
            frames = frames / time.strftime("%H%M%S")  # each bot process's frames and log on their own
            cmd = [sys.executable, "-m", "bot", "-v", "play", "--games", str(session)]
            cmd += ["--time-limit", str(seconds * session)]
            cmd += ["--save-frames", str(frames), "--results-log", str(log)]
            started = time.monotonic()
            limit = seconds * session + 60
            done = subprocess.run(cmd, cwd=ROOT, env=bot_env, capture_output=True, text=True, timeout=limit)
            frames.mkdir(parents=True, exist_ok=True)  # the bot's log beside its frames: what stopped a game
            (frames / "bot.log").write_text(done.stderr)
            lines = log.read_text().splitlines() if log.exists() else []
            played = [json.loads(line) for line in lines[before:]]
            new_game = [line for line in done.stdout.splitlines() if "new games by" in line]
            for line in played:
                line["new_games_by"] = new_game[0].strip() if new_game else ""
            if len(played) == session:
                return played
            said = [line for line in done.stdout.splitlines() if line.startswith("stopped:")]
            tail = said or (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            return [*played, {"status": "error", "error": tail[0], "seconds": time.monotonic() - started}]
        finally:  # the whole session: dbus-run-session's bus and client go too
            focus.set()
            os.killpg(game.pid, signal.SIGTERM)
            try:
                game.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(game.pid, signal.SIGKILL)


def summary(name: str, games: list[dict]) -> dict:
    """Counts per ending and the most common stop reasons of one client's games."""
    ends = Counter(g.get("status", "?") for g in games)
    reasons = Counter((g.get("error") or "")[:140] for g in games if g.get("error"))
    own = sorted(g["own_ms_p50"] for g in games if g.get("own_ms_p50") is not None)
    return {
        "client": name,
        "games": len(games),
        "won": ends.get("won", 0),
        "lost": ends.get("lost", 0),
        "other": len(games) - ends.get("won", 0) - ends.get("lost", 0),
        "clicks_mean": sum(g.get("clicks", 0) for g in games) / max(len(games), 1),
        "own_ms_p50_median": own[len(own) // 2] if own else None,
        "reasons": reasons.most_common(3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", choices=sorted(CLIENTS), action="append", help="default: all")
    parser.add_argument("--games", type=int, default=3, help="games per client (default 3)")
    parser.add_argument("--seconds", type=float, default=GAME_SECONDS, help="time limit per game")
    parser.add_argument(
        "--session",
        type=int,
        default=1,
        help="games per client process: the bot starts each game after the first itself (default 1)",
    )
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "minebot-unseen")
    parser.add_argument("--json", type=Path, help="write the per-game lines and summaries here")
    args = parser.parse_args(argv)
    if shutil.which("xdotool") is None:
        parser.error("xdotool is needed (apt-get install xdotool)")
    results: dict[str, list[dict]] = {}
    for name in args.client or sorted(CLIENTS):
        client = CLIENTS[name]
        if not Path(client.program).exists():
            print(f"{name}: {client.program} is not installed, skipped")
            continue
        slug = name.replace("/", "-")
        log = args.out / f"{slug}.jsonl"
        log.parent.mkdir(parents=True, exist_ok=True)
        games: list[dict] = []
        while len(games) < args.games:
            session = min(args.session, args.games - len(games))
            for line in play_one(client, log, args.out / f"frames-{slug}", args.seconds, session):
                said = f"{line.get('status')} {line.get('clicks', 0)} clicks {line.get('error') or ''}"
                print(f"{name} game {len(games)}: {said} {line.get('new_games_by', '')}"[:260])
                games.append(line)
        results[name] = games
    table = [summary(name, games) for name, games in results.items()]
    print("\n| client | games | won | lost | stopped | clicks / game | own ms p50 (median game) |")
    print("|---|---|---|---|---|---|---|")
    for row in table:
        own = row["own_ms_p50_median"]
        own_text = f"{own:.1f}" if own is not None else "-"
        print(
            f"| {row['client']} | {row['games']} | {row['won']} | {row['lost']} | {row['other']} | "
            f"{row['clicks_mean']:.0f} | {own_text} |"
        )
    for row in table:
        for reason, count in row["reasons"]:
            print(f"{row['client']}: {count}x {reason}")
    if args.json:
        args.json.write_text(json.dumps({"summary": table, "games": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
