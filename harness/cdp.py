"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (no extra library).

Chromium started with ``--remote-debugging-pipe`` reads commands from its fd 3 and writes replies
and events to its fd 4: JSON messages separated by NUL bytes. The harness uses it only to read a
page's own game state (the exact truth of a browser capture) and to set page options such as the
tile size; every move of a game goes through real mouse clicks on the screen.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import time
from typing import Any

from bot.errors import MinebotError


class CdpError(MinebotError):
    """The browser did not answer a DevTools command, or answered with an error."""


class DevToolsPipe:
    """The browser's side of the pipe pair: ``child_fds`` go to the browser as its fds 3 and 4."""

    def __init__(self) -> None:
        self._to_browser_r, self._to_browser_w = os.pipe()
        self._from_browser_r, self._from_browser_w = os.pipe()
        self._buffer = b""
        self._next_id = 0
        self.session: str | None = None

    def child_setup(self) -> None:
        """Run in the child before exec: put the pipe ends on fds 3 (commands) and 4 (replies)."""
        commands = fcntl.fcntl(self._to_browser_r, fcntl.F_DUPFD, 10)  # out of the way of 3 and 4 first
        replies = fcntl.fcntl(self._from_browser_w, fcntl.F_DUPFD, 10)
        os.dup2(commands, 3)
        os.dup2(replies, 4)

    def after_spawn(self) -> None:
        """Close the browser's ends in this process, so its exit shows as end of file."""
        for fd in (self._to_browser_r, self._from_browser_w):
            os.close(fd)
        self._to_browser_r = self._from_browser_w = -1

    def close(self) -> None:
        for name in ("_to_browser_r", "_to_browser_w", "_from_browser_r", "_from_browser_w"):
            fd = getattr(self, name)
            if fd >= 0:
                os.close(fd)
                setattr(self, name, -1)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError("the browser did not answer in time")
            ready, _, _ = select.select([self._from_browser_r], [], [], left)
            if ready:
                chunk = os.read(self._from_browser_r, 1 << 20)
                if not chunk:
                    raise CdpError("the browser closed its DevTools pipe")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(
        self, method: str, params: dict | None = None, timeout: float = 10.0, session: bool = True
    ) -> Any:
        """Send one command (to the attached page when ``session``) and return its result."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") != self._next_id:
                continue  # an event, or a late reply
            if "error" in reply:
                raise CdpError(f"{method} failed: {reply['error'].get('message', reply['error'])}")
            return reply.get("result", {})

    def attach_page(self, url_part: str, timeout: float = 20.0) -> None:
        """Attach to the first page target whose URL contains ``url_part``."""
        deadline = time.monotonic() + timeout
        while True:
            targets = self.call("Target.getTargets", session=False)["targetInfos"]
            pages = [t for t in targets if t["type"] == "page" and url_part in t["url"]]
            if pages:
                attached = self.call(
                    "Target.attachToTarget",
                    {"targetId": pages[0]["targetId"], "flatten": True},
                    session=False,
                )
                self.session = attached["sessionId"]
                return
            if time.monotonic() > deadline:
                raise CdpError(f"no page with {url_part!r} in its URL after {timeout:.0f} s")
            time.sleep(0.1)

    def evaluate(self, expression: str, timeout: float = 10.0) -> Any:
        """The JSON value of a JavaScript expression in the page (promises awaited)."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CdpError(f"page script failed: {text}")
        return result["result"].get("value")
