#!/usr/bin/python3
"""Tilebox's page in a real browser: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver and python3-selenium).

    /usr/bin/python3 tools/web/test_page.py <the page's folder>   # as tools/web/build.sh prints it

It serves the folder on 127.0.0.1, opens the page and checks, each test in a browser of its own
with an empty profile:
- every game: each game's id (every game and Compendium mode) opened by the page's address
  (`#<id>`) and a move played in it, or, in Strike 9's versions, a hint asked;
- two tabs: a second tab is refused while the first is open and saves nothing; closed, the
  first gives the lock back;
- persistence: 2048 started by its keys, moves played by keys, the page reloaded: the game in
  progress and its best are still there; a new game over it puts it in the history, which the
  next reload keeps too;
- screens: every screen opened by its keys (the launcher, a group, 2048, Threes, Strike 9, the
  Compendium's catalogue, the new-game question, a game's code, Play a code, statistics, a
  replay, undo, the daily game), each seen in the page's attributes, and How to play, a hint
  and the other theme asked, with no error in the console;
- narrow: at 360 px wide, touch drags on the board play moves, a tap on Back and a mouse click
  on Back go back;
- offline: the page opened from the disk (file://, with no flag that loosens the browser's
  rules), with no server, plays;
- figures: the first frame's time from opening the page, and Fast autoplay's moves a second,
  printed with the command; the test fails past 3 s or under 20 moves a second.

The page tells what it shows as attributes of its <body> (app/src/web.rs): data-frames,
data-screen, data-dialog, data-game, data-moves, data-score and data-games. Exit status 0 when
every test passes; TILEBOX_WEB_TEST=<part of a test's name> runs only those tests.
"""

import functools
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

CHROMIUM = os.environ.get("TILEBOX_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TILEBOX_CHROMEDRIVER", "/usr/bin/chromedriver")


class Page:
    """One headless Chromium with an empty profile, on the page at `url`."""

    def __init__(self, url, width=800, height=900, mobile=False):
        self.profile = tempfile.mkdtemp(prefix="tilebox-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in [
            "--headless=new",
            "--no-sandbox",
            # WebGL without a GPU.
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",
            # This machine's network is closed: no background connections.
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
        ]:
            options.add_argument(flag)
        if mobile:
            options.add_experimental_option(
                "mobileEmulation",
                # At a pixel ratio of 1: headless Chromium's emulation does not scale the canvas's
                # device-pixel box, which eframe sizes the canvas by.
                {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "touch": True}},
            )
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_script_timeout(30)
        self.opened = time.monotonic()
        self.driver.get(url)

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        """The page, once its first frame is drawn (`with Page(url) as page:`)."""
        try:
            self.first_frame()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_):
        self.close()

    def attr(self, name):
        """The body's attribute `data-<name>`."""
        return self.driver.execute_script(
            "return document.body.getAttribute(arguments[0]);", "data-" + name
        )

    def number(self, name):
        value = self.attr(name)
        return int(value) if value else 0

    def wait(self, what, test, timeout=60.0):
        """Waits until `test()` is true; fails naming `what` and the page's state."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if test():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; the page says {self.state()}")

    def state(self):
        return {
            n: self.attr(n) for n in ["frames", "screen", "dialog", "game", "moves", "score"]
        } | {"title": self.driver.title, "loading": self.loading_text()}

    def loading_text(self):
        return self.driver.execute_script(
            "const e = document.getElementById('loading'); return e ? e.textContent : '';"
        )

    def first_frame(self, timeout=60.0):
        self.wait("the first frame", lambda: self.number("frames") >= 1, timeout)

    def keys(self, *keys, pause=0.15):
        """Presses `keys` one by one, as a player types them into the page."""
        for key in keys:
            ActionChains(self.driver).send_keys(key).perform()
            time.sleep(pause)

    def shift(self, key):
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(key).key_up(Keys.SHIFT).perform()
        time.sleep(0.15)

    def storage(self, name):
        """The text of the app's file `name`, kept in the page's storage."""
        return self.driver.execute_script(
            "return localStorage.getItem(arguments[0]);", "tilebox/" + name
        )

    def errors(self):
        """The console's errors since the last call."""
        return [
            entry
            for entry in self.driver.get_log("browser")
            if entry.get("level") == "SEVERE"
        ]

    def canvas_shot(self):
        return self.driver.find_element("id", "tilebox").screenshot_as_png


def serve(folder):
    """Serves `folder` on 127.0.0.1 in a thread; returns the server and its address."""
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def start_2048(page):
    """From the launcher: 1 opens 2048's boards, 1 starts the 4x4 board."""
    page.wait("the launcher", lambda: page.attr("screen") == "launcher")
    page.keys("1")
    page.wait("2048's boards", lambda: page.attr("screen") == "group")
    page.keys("1")
    page.wait("2048's game", lambda: page.attr("game") == "2048")


def play_until_moves(page, count, timeout=30.0):
    """Presses arrows round and round until the game has `count` moves."""
    arrows = [Keys.LEFT, Keys.UP, Keys.RIGHT, Keys.DOWN]
    end = time.monotonic() + timeout
    i = 0
    while page.number("moves") < count:
        if time.monotonic() > end:
            raise AssertionError(f"the arrows played no moves; the page says {page.state()}")
        page.keys(arrows[i % 4], pause=0.05)
        i += 1


def test_a_game_and_its_best_survive_a_reload(url):
    with Page(url) as page:
        start_2048(page)
        play_until_moves(page, 8)
        moves, score = page.number("moves"), page.number("score")
        page.wait("the save", lambda: '"moves"' in (page.storage("saves/2048.json") or ""))
        save = page.storage("saves/2048.json")
        page.wait("the score table", lambda: page.storage("scores.json") is not None)
        assert page.storage("scores.json"), "no score table was written"
        page.driver.refresh()
        page.first_frame()
        # The launcher's card says so, and the game resumes where it was.
        start_2048(page)
        page.wait("the game resumed", lambda: page.number("moves") == moves)
        assert page.number("score") == score, (page.state(), score)
        assert page.storage("saves/2048.json") == save
        # The game in progress counts for the best: kept too.
        best = json.loads(page.storage("scores.json"))["games"]["2048"]["best"]
        assert best == score, (best, score)
        # A new game over it: the game is played, and goes into the history, which a reload
        # keeps too.
        page.keys("n")
        page.wait("the new-game question", lambda: page.attr("dialog") == "new-game")
        page.keys("y")
        page.wait("a new game", lambda: page.number("moves") == 0 and page.attr("dialog") == "")
        page.wait("the history", lambda: page.storage("history/2048.jsonl") is not None)
        history = page.storage("history/2048.jsonl")
        assert len(history.splitlines()) == 1, history
        assert json.loads(history.splitlines()[0])["score"] == score, history
        page.driver.refresh()
        page.first_frame()
        assert page.storage("history/2048.jsonl") == history
        played = json.loads(page.storage("scores.json"))["games"]["2048"]["played"]
        assert played == 1, played
        print(f"persistence: {moves} moves and a score of {score} kept over a reload, then in the history")


def test_every_screen_opens_without_a_console_error(url):
    with Page(url) as page:
        opened = []

        def at(screen, what, dialog=""):
            page.wait(what, lambda: page.attr("screen") == screen and page.attr("dialog") == dialog)
            errors = page.errors()
            assert not errors, f"{what}: {errors}"
            opened.append(what)

        at("launcher", "the launcher")
        start_2048(page)
        at("game", "2048")
        play_until_moves(page, 2)
        moves = page.number("moves")
        page.keys("u")
        page.wait("a move undone", lambda: page.number("moves") == moves - 1)
        opened.append("undo")
        page.keys(Keys.F1)
        at("game", "2048's How to play")
        page.keys(Keys.F1)
        page.shift("h")
        at("game", "a hint")
        page.shift("c")
        at("game", "the game's code", dialog="code")
        page.keys(Keys.ESCAPE)
        page.keys("n")
        at("game", "the new-game question", dialog="new-game")
        page.keys(Keys.ESCAPE)
        # The daily game asks first over a game in progress; Y starts it.
        page.shift("d")
        at("game", "the daily game's question", dialog="new-game")
        page.keys("y")
        page.wait("the daily game", lambda: page.number("moves") == 0 and page.attr("dialog") == "")
        play_until_moves(page, 1)
        page.shift("s")
        at("stats", "2048's statistics")
        page.keys(Keys.ESCAPE)
        at("game", "back in 2048")
        page.shift("r")
        at("replay", "the replay")
        page.keys(Keys.ESCAPE)
        at("game", "back from the replay")
        page.keys("t")
        at("game", "the other theme")
        page.keys(Keys.ESCAPE, Keys.ESCAPE)
        at("launcher", "the launcher again")
        page.keys("c")
        at("launcher", "Play a code", dialog="play-code")
        page.keys(Keys.ESCAPE)
        # Threes, Strike 9 and the Compendium's catalogue, by their cards' numbers.
        for key, screen, what in [("2", "game", "Threes"), ("7", "group", "Strike 9's versions")]:
            page.keys(key)
            at(screen, what)
            page.keys(Keys.ESCAPE)
            at("launcher", "the launcher after " + what)
        page.keys("7", "1")
        at("game", "Strike 9")
        page.keys(Keys.ESCAPE, Keys.ESCAPE)
        at("launcher", "the launcher after Strike 9")
        page.keys("6")
        at("group", "the Compendium's catalogue")
        page.keys(Keys.ESCAPE)
        at("launcher", "the launcher after the catalogue")
        print("screens opened without a console error: " + ", ".join(opened))


# Strike 9's versions: their moves are tiles picked to match a roll, not arrows.
DICE_GAMES = {"strike9", "shut-the-box", "full-house"}


def test_every_game_opens_by_its_address_and_plays(url):
    with Page(url) as page:
        ids = (page.attr("games") or "").split()
        assert len(ids) > 70, ids
        arrows = [Keys.LEFT, Keys.UP, Keys.RIGHT, Keys.DOWN]
        for id in ids:
            page.driver.execute_script("location.hash = arguments[0];", id)
            page.wait(id, lambda: page.attr("game") == id and page.attr("screen") == "game")
            if id in DICE_GAMES:
                page.shift("h")
            else:
                for key in arrows:
                    page.keys(key, pause=0.05)
                    if page.number("moves") > 0:
                        break
                page.wait(f"a move in {id}", lambda: page.number("moves") > 0, timeout=5)
            errors = page.errors()
            assert not errors, f"{id}: {errors}"
        print(f"every game opened by its address and played: {len(ids)} games")


def test_a_second_tab_saves_nothing_while_the_first_is_open(url):
    with Page(url) as page:
        start_2048(page)
        play_until_moves(page, 2)
        first = page.driver.current_window_handle
        page.driver.switch_to.new_window("tab")
        page.driver.get(url)
        page.first_frame()
        page.wait("the second tab refused", lambda: page.attr("screen") == "refused")
        # The first tab still plays and saves.
        page.driver.switch_to.window(first)
        before = page.storage("saves/2048.json")
        play_until_moves(page, page.number("moves") + 1)
        page.wait("the first tab's save", lambda: page.storage("saves/2048.json") != before)
        # Closed, the first tab gives the lock back: the second, reloaded, has the app.
        second = [h for h in page.driver.window_handles if h != first][0]
        page.driver.close()
        page.driver.switch_to.window(second)
        page.driver.refresh()
        page.first_frame()
        page.wait("the app in the second tab", lambda: page.attr("screen") == "launcher")
        print("a second tab is refused while the first is open, and has the app once it is closed")


def test_the_first_frame_and_fast_autoplay(url):
    with Page(url, width=1280, height=900) as page:
        # The page's own clock, from the start of its navigation to the first frame drawn.
        first_frame_s = page.number("first-frame-ms") / 1000.0
        start_2048(page)
        page.driver.execute_script(
            "localStorage.setItem('tilebox/settings.json', "
            "JSON.stringify({version: 1, theme: 'system', zoom: 100, speed: 'fast'}));"
        )
        page.driver.refresh()
        page.first_frame()
        start_2048(page)
        page.shift("a")
        page.wait("autoplay's first move", lambda: page.number("moves") > 0, timeout=30)
        before, t0 = page.number("moves"), time.monotonic()
        time.sleep(5.0)
        after, t1 = page.number("moves"), time.monotonic()
        rate = (after - before) / (t1 - t0)
        print(f"first frame: {first_frame_s:.2f} s after opening the page")
        print(f"Fast autoplay: {rate:.1f} moves a second ({after - before} moves in {t1 - t0:.1f} s)")
        assert first_frame_s <= 3.0, f"the first frame came {first_frame_s:.2f} s after opening"
        assert rate >= 20.0, f"Fast autoplay made {rate:.1f} moves a second"


def test_at_360_px_touch_drags_play_and_a_tap_and_a_click_go_back(url):
    with Page(url, width=360, height=740, mobile=True) as page:
        start_2048(page)
        moves = page.number("moves")
        canvas = page.driver.find_element("id", "tilebox")
        size = canvas.size
        x, y = size["width"] // 2, int(size["height"] * 0.55)
        for dx, dy in [(-120, 0), (0, -120), (120, 0), (0, 120)]:
            page.driver.execute_cdp_cmd(
                "Input.dispatchTouchEvent",
                {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]},
            )
            for step in range(1, 9):
                page.driver.execute_cdp_cmd(
                    "Input.dispatchTouchEvent",
                    {"type": "touchMove", "touchPoints": [{"x": x + dx * step // 8, "y": y + dy * step // 8}]},
                )
                time.sleep(0.02)
            page.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            time.sleep(0.3)
        page.wait("a move played by a drag", lambda: page.number("moves") > moves, timeout=10)
        played = page.number("moves") - moves
        # A tap on Back, at the top left, leaves the game for 2048's boards.
        for kind in ["touchStart", "touchEnd"]:
            points = [{"x": 30, "y": 18}] if kind == "touchStart" else []
            page.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
            time.sleep(0.1)
        page.wait("Back tapped", lambda: page.attr("screen") == "group", timeout=10)
        # A mouse click on Back, at the same place, goes back to the games.
        size = canvas.size
        ActionChains(page.driver).move_to_element_with_offset(
            canvas, 30 - size["width"] // 2, 18 - size["height"] // 2
        ).click().perform()
        page.wait("Back clicked", lambda: page.attr("screen") == "launcher", timeout=10)
        print(f"at 360 px: touch drags played {played} moves; a tap and a click on Back went back")


def test_the_page_opened_from_the_disk_plays(folder):
    with Page("file://" + os.path.join(os.path.abspath(folder), "index.html")) as page:
        start_2048(page)
        play_until_moves(page, 2)
        print("opened from the disk: it plays")


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], "index.html")):
        print("usage: test_page.py <the folder holding the page's index.html>", file=sys.stderr)
        return 2
    folder = sys.argv[1]
    server, url = serve(folder)
    tests = [
        (test_a_game_and_its_best_survive_a_reload, url),
        (test_every_screen_opens_without_a_console_error, url),
        (test_every_game_opens_by_its_address_and_plays, url),
        (test_a_second_tab_saves_nothing_while_the_first_is_open, url),
        (test_at_360_px_touch_drags_play_and_a_tap_and_a_click_go_back, url),
        (test_the_page_opened_from_the_disk_plays, folder),
        (test_the_first_frame_and_fast_autoplay, url),
    ]
    only = os.environ.get("TILEBOX_WEB_TEST")
    failed = ran = 0
    for test, arg in tests:
        if only and only not in test.__name__:
            continue
        ran += 1
        started = time.monotonic()
        try:
            test(arg)
            print(f"ok   {test.__name__} ({time.monotonic() - started:.1f} s)")
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__} ({time.monotonic() - started:.1f} s)")
            traceback.print_exc()
    server.shutdown()
    print(f"{ran - failed} passed, {failed} failed")
    return 1 if failed or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
