"""A bot of the bot protocol that misbehaves as told, for tests/test_external.py.

    python badbot.py MODE PIDFILE [BAD]

It writes its pid to PIDFILE (then, in ``fork`` mode, its child's pid on the same
line), and plays the first legal action (Yaniv when it may), except on the decision
ids in BAD (``1,3`` or ``all``; default 1), where MODE says what it does instead:

garbage       a line that is not JSON, with an escape code in it
illegal       an action that is not legal
late          the answer, 0.25 s late (the time limit of the tests is 0.2 s)
deep          an action message nested 1,000 levels deep
huge          a 20 MB line, then the rest of the game as usual
no-newline    writes "x" for ever, never a newline
flood-stdout  writes short lines for ever, reading nothing more
exit-mid      exits with code 3 instead of answering
fork          exits with code 0 while a child it started holds its stdout open

and in other modes, on every decision:

exit-at-once  exits with code 4 before reading anything
silent        says ready, then never answers
flood-stderr  floods stderr all the time (it still plays well)
ignore-bye    plays well; ignores bye, the end of its input and SIGTERM, then sleeps
escape-name   says ready with escape codes in its name
good          plays well
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def forever(text: str, stream: Any) -> None:
    chunk = text * (65536 // len(text))
    while True:
        stream.write(chunk)
        stream.flush()


def main(mode: str, pidfile: str, bad_ids: str = "1") -> None:
    with open(pidfile, "w", encoding="utf-8") as f:
        f.write(f"{os.getpid()}")
        if mode == "fork":  # the child inherits stdout and sleeps on it
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            f.write(f" {child.pid}")
        f.write("\n")
    if mode == "exit-at-once":
        sys.exit(4)
    if mode == "flood-stderr":
        threading.Thread(target=forever, args=("noise ", sys.stderr), daemon=True).start()
    if mode == "ignore-bye":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            name = "\x1b[31mevil\x1b[0m\x07 bot\u202e" if mode == "escape-name" else f"bad-{mode}"
            send({"type": "ready", "name": name})
            continue
        if message["type"] == "bye":
            if mode == "ignore-bye":
                continue
            break
        if message["type"] != "decide":
            continue
        k = message["id"]
        if mode == "silent":
            continue
        legal = message["legal"]
        action = next((a for a in legal if a["type"] == "yaniv"), legal[0])
        if bad_ids == "all" or str(k) in bad_ids.split(","):
            if mode in ("garbage", "escape-name"):
                sys.stdout.write("I \x1b[2Jthink I will discard the queen\x07\n")
                sys.stdout.flush()
                continue
            if mode == "illegal":
                action = {"type": "discard", "cards": ["QS", "QH", "QD", "QC", "KS"]}
            elif mode == "late":
                time.sleep(0.25)
            elif mode == "deep":
                deep = "[" * 1000 + "]" * 1000
                sys.stdout.write(f'{{"type": "action", "id": {k}, "action": {deep}}}\n')
                sys.stdout.flush()
                continue
            elif mode == "huge":
                for _ in range(20 * 16):
                    sys.stdout.write("x" * 65536)
                sys.stdout.write("\n")
                sys.stdout.flush()
                continue
            elif mode == "no-newline":
                forever("x", sys.stdout)
            elif mode == "flood-stdout":
                forever("spam\n", sys.stdout)
            elif mode == "exit-mid":
                sys.exit(3)
            elif mode == "fork":
                sys.stdout.flush()
                os._exit(0)
        send({"type": "action", "id": k, "action": action})
    if mode == "ignore-bye":
        while True:
            time.sleep(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
