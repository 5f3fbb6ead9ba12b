"""A headless Chromium driven through the DevTools protocol (the browser's own, over a WebSocket): for the HTML tests.

It starts Debian's ``chromium`` with a fresh profile and a debugging port of
the system's choosing, attaches to its page, and offers what a test needs:
open a file, evaluate JavaScript, press keys, click, take screenshots, and the
console messages and uncaught errors seen so far.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
import subprocess
import time
import zlib
import urllib.request
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--remote-debugging-port=0",
         "--remote-allow-origins=*"]


def chromium_path() -> str | None:
    """The Chromium executable, or None where it is not installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium and its first page. Raises ``TimeoutError`` when it does not answer in time."""

    def __init__(self, executable: str, profile: Path, width: int = 1200, height: int = 1600) -> None:
        import websocket  # the test extras' websocket-client

        self.process = subprocess.Popen([executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise TimeoutError("chromium did not open its debugging port")
            time.sleep(.1)
        port = port_file.read_text().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        page = next(t for t in targets if t["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.console: list[str] = []
        self.loaded = False
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.resize(width, height)

    def resize(self, width: int, height: int = 1600) -> None:
        """Lay the page out at ``width`` CSS pixels; below 600 as a phone does (its viewport meta tag obeyed, touch)."""
        phone = width < 600
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=phone)
        self.send("Emulation.setTouchEmulationEnabled", enabled=phone, maxTouchPoints=5 if phone else 1)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call one DevTools method and return its result; raises ``RuntimeError`` with the browser's error."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self._event(message)

    def _event(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            self.console.append(f"console.{params['type']}: " + " ".join(str(a.get("value", a.get("description")))
                                                                        for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.console.append("uncaught: " + details.get("exception", {}).get("description", details.get("text", "")))
        elif method == "Log.entryAdded":
            entry = params["entry"]
            self.console.append(f"{entry['source']} {entry['level']}: {entry['text']}")
        elif method == "Page.loadEventFired":
            self.loaded = True

    def open(self, path: Path, fragment: str = "") -> None:
        """Load a file (at ``#fragment``, if given) and wait for its load event."""
        self.visit(path.resolve().as_uri() + (f"#{fragment}" if fragment else ""))

    def visit(self, url: str, fresh: bool = False) -> None:
        """Load ``url`` and wait for its load event; ``fresh``: from a blank page first, so that the same page at
        another fragment (a change of fragment alone loads nothing) is a new document too."""
        if fresh:
            self.visit("about:blank")
        self.loaded = False
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + 60
        while not self.loaded:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url.split('#')[0]} did not load")
            self._event(json.loads(self.socket.recv()))

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable); raises ``RuntimeError`` on a throw."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def press(self, key: str, code: int) -> None:
        """Press and release a key (its DOM ``key`` name and its Windows virtual key code) where the focus is."""
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def click(self, selector: str) -> None:
        """Click the middle of the element ``selector`` names, as a mouse would."""
        box = self.evaluate(f"(function () {{ var e = document.querySelector({json.dumps(selector)}); "
                            "e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect(); "
                            "return [r.left + r.width / 2, r.top + r.height / 2]; }())")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def touch_drag(self, selector: str, start: float, end: float, steps: int = 8) -> None:
        """Drag a finger across the element ``selector`` names, at its middle height, from ``start`` to ``end`` (each
        a fraction of its width), as a phone's touch screen reports it."""
        box = self.evaluate(f"(function () {{ var e = document.querySelector({json.dumps(selector)}); "
                            "e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect(); "
                            "return [r.left, r.width, r.top + r.height / 2]; }())")
        left, width, y = box
        xs = [left + width * (start + (end - start) * i / steps) for i in range(steps + 1)]
        self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": xs[0], "y": y}])
        for x in xs[1:]:
            self.send("Input.dispatchTouchEvent", type="touchMove", touchPoints=[{"x": x, "y": y}])
        self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def screenshot(self, path: Path) -> None:
        """Save the viewport as a PNG."""
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def column(self, x: float, top: float, bottom: float) -> list[float]:
        """The brightness (0 black to 255 white, the mean of red, green and blue) of each pixel drawn in the
        viewport's column ``x`` from ``top`` to ``bottom``, as a screenshot shows them."""
        shot = self.send("Page.captureScreenshot", format="png",
                         clip={"x": x, "y": top, "width": 1, "height": bottom - top, "scale": 1})
        return [sum(pixel[:3]) / 3 for pixel in png_pixels(base64.b64decode(shot["data"]))]

    def close(self) -> None:
        """Close the connection and end the browser this object started (by its process, never by name)."""
        if getattr(self, "socket", None) is not None:
            self.socket.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def required() -> bool:
    """Under CI the browser tests must run: ``.ci/run`` installs Chromium."""
    return bool(os.environ.get("CI"))


def chromium_or_skip() -> str:
    """The Chromium executable for a browser test: skips the test where Chromium or websocket-client is missing,
    fails it instead under CI (:func:`required`)."""
    import pytest

    path = chromium_path()
    if path is None:
        if required():
            pytest.fail("chromium is required when CI is set (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    try:
        import websocket  # noqa: F401  (the test extras' websocket-client)
    except ImportError:
        if required():
            raise
        pytest.skip("websocket-client is not installed (pip install '.[test]')")
    return path


def png_pixels(png: bytes) -> list[bytes]:
    """The pixels of an 8-bit RGB or RGBA PNG (as Chromium's screenshots are), row after row, each pixel's bytes."""
    data, at, width, height, kind = b"", 8, 0, 0, 2
    while at < len(png):
        (size,), name = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        body = png[at + 8:at + 8 + size]
        at += 12 + size
        if name == b"IHDR":
            width, height, _, kind = struct.unpack(">IIBB", body[:10])
        elif name == b"IDAT":
            data += body
    raw, step = zlib.decompress(data), 4 if kind == 6 else 3
    stride, previous, pixels, at = width * step, bytes(width * step), [], 0
    for _ in range(height):  # each row undoes its filter (PNG's five: none, sub, up, average, Paeth)
        kind_of_row, row = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left, up = row[i - step] if i >= step else 0, previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind_of_row == 1:
                row[i] = (row[i] + left) & 255
            elif kind_of_row == 2:
                row[i] = (row[i] + up) & 255
            elif kind_of_row == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind_of_row == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                row[i] = (row[i] + near[2]) & 255
        previous = bytes(row)
        pixels += [previous[i:i + step] for i in range(0, stride, step)]
    return pixels
