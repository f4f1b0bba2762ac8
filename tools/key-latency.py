#!/usr/bin/env python3
"""key-latency.py: how long a window takes to show a key's answer, measured from outside.

    tools/key-latency.py [--size 1600x1200] [--keys 12] [--data DIR] -- PROGRAM [ARGS...]

Starts PROGRAM in a virtual X display of its own (Xvfb, WxH), its window moved to 0,0 and
sized to the whole screen, its data and settings in DIR (a fresh temporary directory by
default). Once the screen has been still for a second, it presses an arrow key (Left, Up,
Right, Down in turn, through XTest) and waits for the X server to say that the screen was drawn
on (XDamage): each time, it reads the whole screen (XGetImage) and compares it with the screen
before the key. The first time they differ is the key's first changed frame, timed from the
key to the X server's notice of the drawing that made it (the screen is read only after, so
reading it never delays the program). It goes on until the screen has been still for 0.6 s,
counting the different pictures drawn on the way (the frames of the slide and of the rising
"+N"). Each key prints one line:

    key Left: first change 83 ms, still after 912 ms, 9 pictures, CPU 310 ms (program) + 40 ms (X server), load 1.52

(the CPU time the program and the X server used from the key until the screen was still: less
sensitive to the machine's load than the times are)

and the end a summary (the median and the range of the first change over the keys that
changed the screen). A key that changes nothing within 5 s (a move the board refuses) is told
and left out. Needs Xvfb, xdotool and libX11, libXtst and libXdamage (on Debian:
`apt-get install xvfb xauth xdotool libx11-6 libxtst6 libxdamage1`).
"""

import argparse
import ctypes
import ctypes.util
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ZPIXMAP = 2


class XImage(ctypes.Structure):
    _fields_ = [
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int),
        ("format", ctypes.c_int),
        ("data", ctypes.c_void_p),
        ("byte_order", ctypes.c_int),
        ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int),
        ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
    ]


def xlibs():
    x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    xtst = ctypes.cdll.LoadLibrary(ctypes.util.find_library("Xtst") or "libXtst.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XGetImage.restype = ctypes.POINTER(XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                              ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XDestroyImage.argtypes = [ctypes.POINTER(XImage)]
    x11.XKeysymToKeycode.restype = ctypes.c_ubyte
    x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XStringToKeysym.restype = ctypes.c_ulong
    x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    xdamage = ctypes.cdll.LoadLibrary(ctypes.util.find_library("Xdamage") or "libXdamage.so.1")
    xdamage.XDamageQueryExtension.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int),
                                              ctypes.POINTER(ctypes.c_int)]
    xdamage.XDamageCreate.restype = ctypes.c_ulong
    xdamage.XDamageCreate.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int]
    xdamage.XDamageSubtract.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong,
                                        ctypes.c_ulong]
    x11.XPending.argtypes = [ctypes.c_void_p]
    x11.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    x11.XConnectionNumber.argtypes = [ctypes.c_void_p]
    return x11, xtst, xdamage


def cpu_ms(pid):
    """The CPU time process `pid` has used, all its threads, in ms (to the kernel's tick)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1600x1200")
    ap.add_argument("--keys", type=int, default=12)
    ap.add_argument("--data")
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    prog = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not prog:
        ap.error("no program given")
    w, h = (int(v) for v in a.size.split("x"))
    data = a.data or tempfile.mkdtemp(prefix="key-latency-")
    os.makedirs(data, exist_ok=True)
    for _ in range(200):
        n = random.randint(500, 900)
        if not os.path.exists(f"/tmp/.X{n}-lock") and not os.path.exists(f"/tmp/.X11-unix/X{n}"):
            break
    disp = f":{n}"
    xvfb = subprocess.Popen(["Xvfb", disp, "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    app = None
    try:
        time.sleep(1)
        env = dict(os.environ, DISPLAY=disp, XDG_DATA_HOME=data, XDG_CONFIG_HOME=data)
        log = open(os.path.join(data, "program.log"), "w")
        app = subprocess.Popen(prog, env=env, stdout=log, stderr=subprocess.STDOUT)
        win = subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible",
                              "--pid", str(app.pid)], env=env, capture_output=True, text=True)
        win = (win.stdout.split() or [None])[0]
        if win is None:
            sys.exit(f"key-latency: no window within 30 s; see {data}/program.log")
        for cmd in (["windowmove", win, "0", "0"], ["windowsize", win, str(w), str(h)],
                    ["windowfocus", win]):
            subprocess.run(["xdotool", *cmd], env=env, check=False)
        x11, xtst, xdamage = xlibs()
        d = x11.XOpenDisplay(disp.encode())
        root = x11.XDefaultRootWindow(d)
        event_base, error_base = ctypes.c_int(), ctypes.c_int()
        if not xdamage.XDamageQueryExtension(d, ctypes.byref(event_base), ctypes.byref(error_base)):
            sys.exit("key-latency: the X server has no DAMAGE extension")
        damage = xdamage.XDamageCreate(d, root, 3)  # XDamageReportNonEmpty
        event = (ctypes.c_long * 24)()
        fd = x11.XConnectionNumber(d)

        def drawn(until):
            """Waits until the screen is drawn on, or the time `until`; True if it was."""
            import select
            while True:
                got = False
                while x11.XPending(d):
                    x11.XNextEvent(d, event)
                    if ctypes.cast(event, ctypes.POINTER(ctypes.c_int))[0] == event_base.value:
                        got = True
                if got:
                    xdamage.XDamageSubtract(d, damage, 0, 0)
                    x11.XFlush(d)
                    return True
                left = until - time.monotonic()
                if left <= 0:
                    return False
                select.select([fd], [], [], left)

        def grab():
            img = x11.XGetImage(d, root, 0, 0, w, h, 0xFFFFFFFF, ZPIXMAP)
            size = img.contents.bytes_per_line * img.contents.height
            pixels = ctypes.string_at(img.contents.data, size)
            x11.XDestroyImage(img)
            return pixels

        def settle(since, still=0.6, limit=20.0):
            """Reads the screen each time it is drawn on, until it has not changed for `still`
            s; returns the last picture, the time it was drawn and how many different pictures
            were seen."""
            last, changed, seen = grab(), time.monotonic(), 1
            while time.monotonic() - since < limit:
                if not drawn(changed + still):
                    break
                at = time.monotonic()
                now_px = grab()
                if now_px != last:
                    last, changed, seen = now_px, at, seen + 1
            return last, changed, seen

        time.sleep(2)
        subprocess.run(["xdotool", "windowfocus", win], env=env, check=False)
        settle(time.monotonic(), still=1.0, limit=30.0)
        firsts = []
        names = ["Left", "Up", "Right", "Down"]
        for i in range(a.keys):
            name = names[i % len(names)]
            code = x11.XKeysymToKeycode(d, x11.XStringToKeysym(name.encode()))
            before, _, _ = settle(time.monotonic(), still=1.0)
            load = open("/proc/loadavg").read().split()[0]
            cpu0 = cpu_ms(app.pid), cpu_ms(xvfb.pid)
            drawn(time.monotonic())  # what was drawn before the key is not its answer
            xtst.XTestFakeKeyEvent(d, code, 1, 0)
            x11.XSync(d, 0)
            t0 = time.monotonic()
            xtst.XTestFakeKeyEvent(d, code, 0, 0)
            x11.XSync(d, 0)
            first = None
            while drawn(t0 + 5.0):
                at = time.monotonic()
                if grab() != before:
                    first = at - t0
                    break
            if first is None:
                print(f"key {name}: no change within 5 s (a refused move?), load {load}", flush=True)
                continue
            _, last, seen = settle(t0)
            cpu = cpu_ms(app.pid) - cpu0[0], cpu_ms(xvfb.pid) - cpu0[1]
            firsts.append(first)
            print(f"key {name}: first change {first * 1000:.0f} ms, still after "
                  f"{(last - t0) * 1000:.0f} ms, {seen} pictures, CPU {cpu[0]:.0f} ms "
                  f"(program) + {cpu[1]:.0f} ms (X server), load {load}", flush=True)
        if firsts:
            print(f"first change over {len(firsts)} keys: median {statistics.median(firsts) * 1000:.0f} ms, "
                  f"{min(firsts) * 1000:.0f} to {max(firsts) * 1000:.0f} ms; program log {data}/program.log")
    finally:
        if app is not None and app.poll() is None:
            app.send_signal(signal.SIGTERM)
            try:
                app.wait(5)
            except subprocess.TimeoutExpired:
                app.kill()
        xvfb.terminate()


if __name__ == "__main__":
    main()
