"""
The JSON codecs of BYOA's frames and of its events between processes: orjson
against the standard library's json and msgpack (channels-redis's codec), on
the payloads they carry.

    .venv/bin/python benchmarks/frame_codec.py [--repeat 7] [--clip-seconds 60]

Payloads:
  call frame   a server -> wallet call carrying an audio clip
               (``--clip-seconds`` of 16 kHz silence, base64: the frames' large
               case, within the spec's 4 MB), encoded by ``json.dumps``,
               ``orjson.dumps`` and ``byoa.wire.protocol.dump``
  result frame a wallet's result (about 200 words of text), parsed by the
               standard decoder ``byoa.wire.protocol`` falls back to, by
               ``orjson.loads`` and by ``byoa.wire.protocol.parse`` (its guards, then
               orjson)
  call event   a ``byoa.call`` event for a small text call, and the
  result event  ``byoa.result`` event back (as ``byoa.calls`` and
               ``byoa.consumers`` write them): orjson against msgpack
               (channels-redis's codec), each way

Each figure is the best of ``--repeat`` timings of a loop sized to take about
0.2 s (``timeit.Timer.autorange``), per operation, in this process on one CPU:
CPU-bound code, so the best is the one least disturbed by the machine's load.
"""

import argparse
import base64
import functools
import json
import os
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _best(function, *, repeat):
    """Return the best time of one call of ``function``, in microseconds."""
    timer = timeit.Timer(function)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e6


def _payloads(clip_seconds):
    from byoa.wire.wav import silent_clip

    clip = base64.b64encode(silent_clip(clip_seconds)).decode()
    call = {
        "type": "call",
        "id": "c-0123456789abcdef",
        "skill": "audio.transcribe",
        "input": {"audio": {"mime": "audio/wav", "base64": clip}},
        "params": {"language": "en"},
    }
    words = ("The capital of Slovakia is Bratislava, on the Danube, near Vienna and Budapest. " * 14).strip()
    result = {"type": "result", "id": "c-0123456789abcdef", "output": {"text": words}}
    # Events between processes, of the size byoa sends (byoa.calls, byoa.consumers).
    body = json.dumps(
        {
            "skill": "text.generate",
            "input": {"messages": [{"role": "user", "content": "Is it bigger than a breadbox?"}]},
            "params": {"maxTokens": 16},
        },
        separators=(",", ":"),
    )
    call_event = {  # as byoa.delivery.events sends them, before the signature
        "type": "byoa.call",
        "id": 4503599627370493,
        "reply": "asgispecific.4f2a9c1e7b3d5a60c8e1f0a2b3c4d5e6",
        "skill": "text.generate",
        "params": {"maxTokens": 16},
        "input": body,
        "timeout": 20.0,
    }
    result_event = {
        "type": "byoa.result",
        "ok": True,
        "output": {"text": "No, it is smaller."},
        "id": 4503599627370493,
    }
    return call, result, call_event, result_event


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="timings per figure; the best is printed")
    parser.add_argument("--clip-seconds", type=float, default=60.0, help="the call frame's clip length")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
    import msgpack  # channels-redis's codec (the "scale" extra)
    import orjson

    from byoa.wire import protocol

    call, result, call_event, result_event = _payloads(args.clip_seconds)
    call_text, result_text = protocol.dump(call), protocol.dump(result)
    decoder = (
        json.JSONDecoder()
    )  # byoa.wire.protocol's fallback decoder, without its two hooks (not reached here)
    best = functools.partial(_best, repeat=args.repeat)
    rows = [
        (
            f"call frame, encode ({len(call_text) / 1e6:.2f} MB)",
            {
                "json (stdlib)": best(lambda: json.dumps(call)),
                "orjson": best(lambda: orjson.dumps(call)),
                "protocol": best(lambda: protocol.dump(call)),
            },
        ),
        (
            f"result frame, parse ({len(result_text)} bytes)",
            {
                "json (stdlib)": best(lambda: decoder.decode(result_text)),
                "orjson": best(lambda: orjson.loads(result_text)),
                "protocol": best(lambda: protocol.parse(result_text)),
            },
        ),
    ]
    for name, event in (("call event", call_event), ("result event", result_event)):
        encoded, packed = orjson.dumps(event), msgpack.packb(event)
        rows.append(
            (
                f"{name}, encode ({len(encoded)} bytes)",
                {
                    "orjson": best(lambda event=event: orjson.dumps(event)),
                    "msgpack": best(lambda event=event: msgpack.packb(event)),
                },
            )
        )
        rows.append(
            (
                f"{name}, decode",
                {
                    "orjson": best(lambda encoded=encoded: orjson.loads(encoded)),
                    "msgpack": best(lambda packed=packed: msgpack.unpackb(packed)),
                },
            )
        )
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    print(
        f"Frame and event codecs, best of {args.repeat} timings, us per operation (x: / orjson's); {started}, "
        f"{os.cpu_count()} CPUs, load average {load[0]:.2f}; Python {sys.version.split()[0]}, "
        f"orjson {orjson.__version__}, msgpack {'.'.join(map(str, msgpack.version))}"
    )
    print("protocol: byoa.wire.protocol's dump and parse, as the consumer calls them")
    columns = ("json (stdlib)", "orjson", "protocol", "msgpack")
    print(f"{'payload':<36}" + "".join(f"{column:>22}" for column in columns))
    for name, timings in rows:
        cells = []
        for column in columns:
            if column not in timings:
                cells.append(f"{'-':>22}")
            elif column == "orjson":
                cells.append(f"{timings[column]:>22.1f}")
            else:
                cells.append(f"{f'{timings[column]:.1f} ({timings[column] / timings["orjson"]:.1f}x)':>22}")
        print(f"{name:<36}" + "".join(cells))


if __name__ == "__main__":
    main()
