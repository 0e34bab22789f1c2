"""
The project's ASGI application with a probe of its event loop, for ``ws_flood.py --probe``.

Set ``LOOP_PROBE_FILE`` and serve ``benchmarks._loop_probe:application``. From the
first request on, a timer on the loop notes how late it runs (every 20 ms), a thread
watches that timer and, while it is more than 200 ms late, writes down where the
loop's thread is (every 50 ms: what blocks the loop), and the garbage collector's
passes are timed. At each line the file gets the figures so far, as JSON.
"""

import asyncio
import gc
import json
import os
import sys
import threading
import time
import traceback

from sites.config.asgi import application as _application

_TICK = 0.02
_STALL = 0.2


class _Probe:
    def __init__(self, path):
        self.path = path
        self.last = time.monotonic()
        self.lags = []  # (wall clock, how late a tick ran), seconds
        self.gc_pauses = []  # (wall clock, seconds)
        self.wakeups = []  # (wall clock, seconds a callback from a thread waited for the loop)
        self.requests = []  # (wall clock, seconds to its response's start, seconds to its first receive())
        self.stacks = []  # (wall clock, where the loop's thread was during a stall)
        self.slow = []  # (wall clock, where each other thread was while a request waited over 200 ms)
        self.open = {}  # requests without a response yet: id -> monotonic start
        self._gc_started = 0.0
        self._lock = threading.Lock()

    def start(self, loop):
        self.loop = loop
        self.loop_thread = threading.get_ident()
        gc.callbacks.append(self._gc)
        loop.call_soon(self._tick, time.monotonic())
        threading.Thread(target=self._watch, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()

    def _tick(self, due):
        now = time.monotonic()
        self.last = now
        self.lags.append((time.time(), now - due))
        self.loop.call_later(_TICK, self._tick, now + _TICK)

    def _woken(self, sent):
        self.wakeups.append((time.time(), time.monotonic() - sent))

    def _gc(self, phase, info):
        if threading.get_ident() != self.loop_thread:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append((time.time(), time.perf_counter() - self._gc_started))

    def _watch(self):
        while True:
            time.sleep(0.05)
            # How long a callback sent from a thread waits for the loop (as each sync_to_async return does).
            self.loop.call_soon_threadsafe(self._woken, time.monotonic())
            if time.monotonic() - self.last > _STALL:
                frame = sys._current_frames().get(self.loop_thread)
                if frame is not None:
                    where = "".join(traceback.format_stack(frame)[-6:])
                    with self._lock:
                        self.stacks.append((time.time(), where))
            if any(time.monotonic() - started > _STALL for started in list(self.open.values())):
                me = threading.get_ident()
                for ident, frame in sys._current_frames().items():
                    if ident != me:
                        label = "[loop] " if ident == self.loop_thread else ""
                        where = label + "".join(traceback.format_stack(frame)[-5:])
                        with self._lock:
                            self.slow.append((time.time(), where))

    def _write(self):
        while True:
            time.sleep(0.5)
            with self._lock:
                figures = {
                    "lags": list(self.lags),
                    "gc_pauses": list(self.gc_pauses),
                    "wakeups": list(self.wakeups),
                    "requests": list(self.requests),
                    "stacks": list(self.stacks),
                    "slow": list(self.slow),
                }
            with open(self.path + ".new", "w") as out:  # replaced whole: a reader never sees half
                json.dump(figures, out)
            os.replace(self.path + ".new", self.path)


_probe = _Probe(os.environ.get("LOOP_PROBE_FILE", os.devnull))
_started = False


async def application(scope, receive, send):
    global _started
    if not _started:
        _started = True
        _probe.start(asyncio.get_running_loop())
    if scope["type"] != "http":
        await _application(scope, receive, send)
        return
    started = time.monotonic()
    key = object()
    _probe.open[key] = started

    body_read = []

    async def timed_receive():
        message = await receive()
        if not body_read:
            body_read.append(time.monotonic() - started)
        return message

    async def timed_send(message):
        if message["type"] == "http.response.start":
            took = time.monotonic() - started
            _probe.requests.append((time.time(), took, body_read[0] if body_read else took))
            _probe.open.pop(key, None)
        await send(message)

    try:
        await _application(scope, timed_receive, timed_send)
    finally:
        _probe.open.pop(key, None)
