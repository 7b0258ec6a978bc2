"""Scripted attacks on one ``yaniv serve`` over loopback, and a normal table's latency during each.

Starts a server on a free loopback port (a fresh SQLite file, bots without delay), seats a
*normal* table of four scripted people who act after a short think (``--think``), and
measures the latency of its actions (an action sent until its update has reached every
seat of the table) first alone, then while each attack runs for ``--seconds``:

``sync_flood``   4 sockets send ``{"type":"sync","since":1}`` 2,100 times each, never reading
``slow_reader``  20 spectators ask for welcomes and never read (a 4 KiB receive window)
``big_body``     4 clients POST 30 MB bodies (Content-Length and chunked)
``spectators``   1,000 spectators watch the normal table itself (every update fans out to them)
``slowloris``    300 sockets trickle request headers, a byte a second

Prints one JSON line per phase: the normal table's actions and latency percentiles, the
server's resident memory at the end of the phase, and what the attack achieved (messages
the attackers received, connections closed by the server). Loopback only; bounded in
connections, bytes and time. The server keeps its default limits except that one address
may open enough websockets for the 1,000 spectators (they would be refused at the door).

    .venv/bin/python bench/web_attack.py --seconds 10
    .venv/bin/python bench/web_attack.py --only spectators,sync_flood
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ATTACKS = ("sync_flood", "slow_reader", "big_body", "spectators", "slowloris")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import choose, free_port  # noqa: E402  (the load benchmark's scripted player)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


class Normal:
    """The normal table: four scripted people; latencies of their actions, per phase."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.pings: list[float] = []
        self.stamps: list[tuple[float, float]] = []  # (when, latency) of each action
        self.table = ""
        self.sent: dict[str, float] = {}
        self.produced: dict[int, float] = {}
        self.arrived: dict[int, int] = {}
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}

    def arrival(self, version: int, now: float) -> None:
        self.arrived[version] = self.arrived.get(version, 0) + 1
        self._settle(version, now)

    def acked(self, action_id: str, version: int, now: float) -> None:
        t0 = self.sent.pop(action_id, None)
        if t0 is not None:
            self.produced[version] = t0
            self._settle(version, now)

    def _settle(self, version: int, now: float) -> None:
        if self.arrived.get(version, 0) >= self.n and version in self.produced:
            latency = now - self.produced.pop(version)
            self.latencies.append(latency)
            self.stamps.append((now, latency))
            del self.arrived[version]


async def prober(url: str, normal: Normal, stop: asyncio.Event) -> None:
    """A spectator of the normal table that pings ten times a second: the server's responsiveness."""
    async with connect(f"{url}/ws/{normal.table}", max_size=2**22, open_timeout=30) as ws:
        await ws.send('{"type":"hello"}')
        n = 0
        while not stop.is_set():
            n += 1
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": str(n)}))
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "pong" and m.get("id") == str(n):
                    break
            normal.pings.append(time.perf_counter() - t0)
            await asyncio.sleep(0.1)


async def player(url: str, normal: Normal, token: str, think: float, stop: asyncio.Event) -> None:
    table = normal.table
    while not stop.is_set():
        async with connect(f"{url}/ws/{table}", max_size=2**22, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            seat, acted, readied, next_table = None, -1, -1, None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                m = json.loads(text)
                kind = m["type"]
                if kind == "welcome":
                    seat = m["seat"]
                    if seat == 0 and m["table"]["status"] == "lobby":
                        await asyncio.sleep(0.5)
                        await ws.send(json.dumps({"type": "start"}))
                elif kind == "ack":
                    normal.acked(m["id"], m["version"], now)
                    continue
                elif kind == "error":
                    normal.errors[m["code"]] = normal.errors.get(m["code"], 0) + 1
                    continue
                elif kind == "rematch":
                    next_table = m["table"]
                    break
                if kind not in ("welcome", "update") or m.get("view") is None:
                    continue
                version, view = m["version"], m["view"]
                if kind == "update":
                    normal.arrival(version, now)
                if view["game_over"]:
                    if seat == 0:
                        await ws.send(json.dumps({"type": "rematch"}))
                    continue
                if view["phase"] == "round_over":
                    if readied != view["round"]:
                        readied = view["round"]
                        await ws.send(json.dumps({"type": "ready"}))
                    continue
                if view["current"] == seat and acted != version:
                    action = choose(view)
                    if action is None:
                        continue
                    acted = version
                    await asyncio.sleep(random.uniform(0.5, 1.5) * think)
                    aid = uuid.uuid4().hex[:12]
                    normal.sent[aid] = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "action", "id": aid, "version": version, "action": action})
                    )
        if next_table is None:
            return
        if normal.table == table:
            normal.table = next_table
            normal.sent.clear()
            normal.produced.clear()
            normal.arrived.clear()
        table = next_table


# ----------------------------------------------------------------- the attacks


class Tally:
    """What an attack got: messages received, connections the server closed."""

    def __init__(self) -> None:
        self.messages = 0
        self.closed = 0
        self.opened = 0
        self.refused = 0
        self.bytes_written = 0
        self.answers: dict[str, float] = {}

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v}


def ws_frame(text: str) -> bytes:
    """A masked client text frame (short messages only)."""
    data = text.encode()
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    return bytes([0x81, 0x80 | len(data)]) + mask + body


async def raw_ws(
    port: int, path: str, rcvbuf: int | None = None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await writer.drain()
    return reader, writer


async def sync_flood(port: int, url: str, table: str, token: str, stop: asyncio.Event, tally: Tally) -> None:
    async def one() -> None:
        reader, writer = await raw_ws(port, f"/ws/{table}", rcvbuf=8192)
        tally.opened += 1
        writer.write(ws_frame(json.dumps({"type": "hello", "token": token})))
        try:
            for _ in range(2100):
                writer.write(ws_frame('{"type":"sync","since":1}'))
                await asyncio.wait_for(writer.drain(), 5)
        except (OSError, TimeoutError):
            pass
        await stop.wait()
        got = b""
        with contextlib.suppress(Exception):
            while chunk := await asyncio.wait_for(reader.read(1 << 20), 2):
                got += chunk
        tally.closed += got.count(b"rate_limited") > 0
        tally.messages += got.count(b'"type":"welcome"')
        writer.close()

    await asyncio.gather(*(one() for _ in range(4)))


async def slow_reader(port: int, url: str, table: str, token: str, stop: asyncio.Event, tally: Tally) -> None:
    async def one() -> None:
        reader, writer = await raw_ws(port, f"/ws/{table}", rcvbuf=4096)
        tally.opened += 1
        writer.write(ws_frame('{"type":"hello"}'))
        sent = 0
        try:
            while not stop.is_set() and sent < 200:
                writer.write(ws_frame('{"type":"sync"}'))
                sent += 1
                await asyncio.wait_for(writer.drain(), 2)
                await asyncio.sleep(0.05)
        except (OSError, TimeoutError):
            pass
        await stop.wait()
        with contextlib.suppress(Exception):
            while await asyncio.wait_for(reader.read(1 << 20), 1):
                pass
            tally.closed += 1
        writer.close()

    await asyncio.gather(*(one() for _ in range(20)))


async def big_body(port: int, url: str, table: str, token: str, stop: asyncio.Event, tally: Tally) -> None:
    async def one(chunked: bool) -> None:
        while not stop.is_set():
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            head = "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else "Content-Length: 31457280\r\n\r\n"
            writer.write(head.encode())
            status = asyncio.create_task(reader.readline())
            block = b"x" * 65536
            piece = f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block
            with contextlib.suppress(OSError, TimeoutError):
                for _ in range(480):  # 30 MB, until the server answers
                    if status.done():
                        break
                    writer.write(piece)
                    await asyncio.wait_for(writer.drain(), 2)
                    tally.bytes_written += len(block)
            with contextlib.suppress(Exception):
                line = await asyncio.wait_for(status, 2)
                code = line.split(b" ")[1].decode()
                tally.answers[code] = tally.answers.get(code, 0) + 1
            status.cancel()
            writer.close()

    await asyncio.gather(*(one(i % 2 == 1) for i in range(4)))


async def spectators(port: int, url: str, table: str, token: str, stop: asyncio.Event, tally: Tally) -> None:
    async def one() -> None:
        try:
            async with connect(f"{url}/ws/{table}", max_size=2**22, open_timeout=30) as ws:
                tally.opened += 1
                await ws.send('{"type":"hello"}')
                while not stop.is_set():
                    try:
                        await asyncio.wait_for(ws.recv(), 1.0)
                        tally.messages += 1
                    except TimeoutError:
                        continue
        except Exception:
            tally.refused += 1

    tasks = []
    for _ in range(1000):
        tasks.append(asyncio.create_task(one()))
        await asyncio.sleep(0.002)  # 1,000 within two seconds, as a crowd arrives
    await asyncio.gather(*tasks)


async def slowloris(port: int, url: str, table: str, token: str, stop: asyncio.Event, tally: Tally) -> None:
    t0 = time.monotonic()
    closed_after: list[float] = []

    async def one() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        tally.opened += 1
        writer.write(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")
        end = time.monotonic() + 60
        with contextlib.suppress(Exception):
            while time.monotonic() < end and not reader.at_eof():
                writer.write(b"X")  # a byte a second: each keeps the request unfinished
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(4096), 1.0) == b"":
                        break
        closed_after.append(time.monotonic() - t0)
        tally.closed += 1
        writer.close()

    await asyncio.gather(*(one() for _ in range(300)))
    tally.answers["closed_by_s"] = round(max(closed_after), 1) if closed_after else -1


RUNNERS: dict[str, Callable[..., Coroutine[Any, Any, None]]] = {
    "sync_flood": sync_flood,
    "slow_reader": slow_reader,
    "big_body": big_body,
    "spectators": spectators,
    "slowloris": slowloris,
}


def pct(lat: list[float], p: float) -> float | None:
    if not lat:
        return None
    s = sorted(lat)
    return round(s[min(len(s) - 1, int(p * len(s)))] * 1000, 1)


def attack_process(name: str, port: int, table: str, token: str, seconds: float, out: Any) -> None:
    """Run one attack in a process of its own (the measuring clients must not share its CPU time)."""

    async def run() -> Tally:
        tally = Tally()
        stop = asyncio.Event()
        task = asyncio.create_task(RUNNERS[name](port, f"ws://127.0.0.1:{port}", table, token, stop, tally))
        await asyncio.sleep(seconds)
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 70)
        return tally

    out.put(asyncio.run(run()).as_dict())


async def bench(args: argparse.Namespace, base: str, pid: int, port: int) -> list[dict[str, Any]]:
    ws_url = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/api/tables", json={"name": "P0", "players": 4, "rules": args.rules})).json()
        tokens = [made["token"]]
        for i in range(1, 4):
            joined = await http.post(f"/api/tables/{made['table']}/join", json={"name": f"P{i}"})
            tokens.append(joined.json()["token"])
        victim = (await http.post("/api/tables", json={"name": "V", "players": 2})).json()
    normal = Normal(4)
    normal.table = made["table"]
    stop_all = asyncio.Event()
    players = [asyncio.create_task(player(ws_url, normal, tok, args.think, stop_all)) for tok in tokens]
    await asyncio.sleep(3)
    players.append(asyncio.create_task(prober(ws_url, normal, stop_all)))
    out = []
    context = multiprocessing.get_context("spawn")
    for phase in ["baseline", *args.only]:
        normal.latencies = []
        normal.pings = []
        t0 = time.perf_counter()
        proc, results = None, context.Queue()
        if phase != "baseline":
            target = normal.table if phase == "spectators" else victim["table"]
            proc = context.Process(
                target=attack_process, args=(phase, port, target, victim["token"], args.seconds, results)
            )
            proc.start()
        await asyncio.sleep(args.seconds + (1.5 if proc else 0))  # a spawned process takes a moment to start
        lat, pings = list(normal.latencies), list(normal.pings)
        memory = rss_mb(pid)
        tally: dict[str, Any] = {}
        if proc is not None:
            for _ in range(900):
                if not results.empty() or not proc.is_alive():
                    break
                await asyncio.sleep(0.1)
            with contextlib.suppress(Exception):
                tally = results.get(timeout=1)
            proc.join(5)
            if proc.is_alive():
                proc.kill()
        out.append(
            {
                "phase": phase,
                "seconds": round(time.perf_counter() - t0, 1),
                "actions": len(lat),
                "latency_ms_p50": pct(lat, 0.5),
                "latency_ms_p99": pct(lat, 0.99),
                "latency_ms_max": round(max(lat) * 1000, 1) if lat else None,
                "pings": len(pings),
                "ping_ms_p50": pct(pings, 0.5),
                "ping_ms_p99": pct(pings, 0.99),
                "ping_ms_max": round(max(pings) * 1000, 1) if pings else None,
                "server_rss_mb": memory,
                "attack": tally,
                "errors": dict(normal.errors),
            }
        )
        print(json.dumps(out[-1]), flush=True)
        await asyncio.sleep(2)  # let the server settle before the next attack
    stop_all.set()
    await asyncio.wait(players, timeout=10)
    for task in players:
        task.cancel()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=10.0, help="seconds per phase (10)")
    p.add_argument("--think", type=float, default=0.3, help="mean seconds a normal player thinks (0.3)")
    p.add_argument("--rules", default="standard")
    p.add_argument("--only", default=",".join(ATTACKS), help=f"attacks to run, of: {', '.join(ATTACKS)}")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile, stats to FILE")
    args = p.parse_args()
    args.only = [a for a in args.only.split(",") if a]
    if not set(args.only) <= set(ATTACKS) or not 1 <= args.seconds <= 120:
        p.error(f"--only takes {', '.join(ATTACKS)}; --seconds 1..120")
    port = free_port()
    env = dict(
        os.environ,
        YANIV_WEB_SOCKETS_PER_CLIENT="2000",
        YANIV_WEB_SPECTATORS_PER_TABLE="2000",
        YANIV_WEB_TABLES_PER_CLIENT="0",
    )
    with tempfile.TemporaryDirectory() as tmp:
        python = [sys.executable, *(["-m", "cProfile", "-o", args.profile] if args.profile else [])]
        server = subprocess.Popen(
            [*python, "-m", "yaniv.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(Path(tmp) / "attack.db"), "--bot-delay", "0", "--log-level", "error"],
            env=env,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/presets", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            results = asyncio.run(bench(args, base, server.pid, port))
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
    worst = max((r["latency_ms_p99"] or 0) for r in results)
    print(
        json.dumps(
            {"summary": "worst p99 of the normal table", "latency_ms_p99": worst, "cores": os.cpu_count()}
        )
    )


if __name__ == "__main__":
    main()
