"""Load test of the web server: many tables of scripted clients over real websockets.

Starts one ``yaniv serve`` process on a free loopback port (a fresh SQLite file, bots
without delay), makes ``--tables`` tables of ``--players`` people each, connects every
seat over its own websocket and lets the clients play (call Yaniv when allowed, else
throw the most points, then draw; say ready at a round's end; start a rematch at a
game's end) for ``--seconds``; ``--think S`` makes each client wait 0..2S seconds
before it acts, as people do (0: at once, which saturates the server). Prints one JSON
line: actions/s and the latency from an action being sent to the update reaching
*every* seat of its table (p50, p90, p99, max), plus the CPU use of the server and of
the clients. Loopback only; bounded in tables and time. Every client comes from one
address here, so the server's per-address limits (websockets, new tables) are lifted;
at ``--think 0`` the per-connection message rate limit is too (machine-speed clients).

    .venv/bin/python bench/web_load.py --tables 200 --seconds 30 --think 0.5
    .venv/bin/python bench/web_load.py --tables 20 --seconds 10 --profile /tmp/server.prof
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(card: str) -> int:
    return 0 if card == "JK" else VALUES.get(card[:-1]) or int(card[:-1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    legal = [a for a in view["legal"] if a["type"] != "slap"]
    for a in legal:
        if a["type"] == "yaniv":
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        return max(discards, key=lambda a: (sum(value(c) for c in a["cards"]), len(a["cards"])))
    for a in legal:
        if a["type"] in ("draw", "take"):
            return a
    return legal[0] if legal else None


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.games = 0
        self.measuring = False


class TableRun:
    """The clients of one table (and of its rematches)."""

    def __init__(self, n: int, stats: Stats) -> None:
        self.n = n
        self.stats = stats
        self.sent: dict[str, float] = {}  # action id -> send time
        self.produced: dict[int, float] = {}  # version -> send time of the action that made it
        self.arrived: dict[int, list[float]] = {}  # version -> arrival times
        self.table_id = ""
        self.connected = 0

    def arrival(self, version: int, now: float) -> None:
        times = self.arrived.setdefault(version, [])
        times.append(now)
        self._settle(version)

    def acked(self, action_id: str, version: int) -> None:
        t0 = self.sent.pop(action_id, None)
        if t0 is not None:
            self.produced[version] = t0
            self._settle(version)

    def _settle(self, version: int) -> None:
        times = self.arrived.get(version)
        t0 = self.produced.get(version)
        if times is None or t0 is None or len(times) < self.n:
            return
        if self.stats.measuring:
            self.stats.latencies.append(max(times) - t0)
            self.stats.actions += 1
        del self.arrived[version]
        del self.produced[version]


async def client(url: str, run: TableRun, token: str, stop: asyncio.Event, args_think: float) -> None:
    table = run.table_id
    while not stop.is_set():
        async with connect(f"{url}/ws/{table}", max_size=2**22, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            seat, version, acted, readied = None, 0, -1, -1
            next_table = None
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
                    run.connected += 1
                    if seat == 0 and m["table"]["status"] == "lobby":
                        while run.connected < run.n and not stop.is_set():
                            await asyncio.sleep(0.05)  # the host starts once everyone is here
                        await ws.send(json.dumps({"type": "start"}))
                elif kind == "ack":
                    run.acked(m["id"], m["version"])
                    continue
                elif kind == "error":
                    run.stats.errors[m["code"]] = run.stats.errors.get(m["code"], 0) + 1
                    continue
                elif kind == "rematch":
                    next_table = m["table"]
                    break
                if kind not in ("welcome", "update") or m.get("view") is None:
                    continue
                version = m["version"]
                if kind == "update":
                    run.arrival(version, now)
                view = m["view"]
                if view["game_over"]:
                    if seat == 0:
                        run.stats.games += 1
                        await ws.send(json.dumps({"type": "rematch"}))
                    continue
                if view["phase"] == "round_over":
                    if readied != view["round"]:
                        readied = view["round"]
                        await ws.send(json.dumps({"type": "ready"}))
                    continue
                if view["current"] == seat and acted != version:
                    action = choose(view)
                    if action is not None and args_think > 0:
                        await asyncio.sleep(random.uniform(0, 2 * args_think))  # a person thinks
                    if action is not None:
                        acted = version
                        aid = uuid.uuid4().hex[:12]
                        run.sent[aid] = time.perf_counter()
                        await ws.send(
                            json.dumps({"type": "action", "id": aid, "version": version, "action": action})
                        )
        if next_table is None:
            return
        if run.table_id == table:  # the first of the table's clients to hear moves the whole run
            run.table_id = next_table
            run.sent.clear()
            run.produced.clear()
            run.arrived.clear()
        table = next_table


async def make_table(http: httpx.AsyncClient, players: int, rules: str) -> tuple[str, list[str]]:
    r = await http.post("/api/tables", json={"name": "P0", "players": players, "rules": rules})
    r.raise_for_status()
    made = r.json()
    tokens = [made["token"]]
    for i in range(1, players):
        j = await http.post(f"/api/tables/{made['table']}/join", json={"name": f"P{i}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return made["table"], tokens


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bench(args: argparse.Namespace, base: str) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    ws_url = base.replace("http://", "ws://")
    runs: list[TableRun] = []
    tasks: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(args.tables):
            table, tokens = await make_table(http, args.players, args.rules)
            run = TableRun(args.players, stats)
            run.table_id = table
            runs.append(run)
            for tok in tokens:
                tasks.append(asyncio.create_task(client(ws_url, run, tok, stop, args.think)))
            await asyncio.sleep(0)
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    lat = sorted(stats.latencies)

    def pct(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 2) if lat else None

    return {
        "tables": args.tables,
        "think_s": args.think,
        "connections": args.tables * args.players,
        "seconds": round(elapsed, 1),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "latency_ms_p50": pct(0.50),
        "latency_ms_p90": pct(0.90),
        "latency_ms_p99": pct(0.99),
        "latency_ms_max": round(lat[-1] * 1000, 2) if lat else None,
        "latency_ms_mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "games_finished": stats.games,
        "errors": stats.errors,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--rules", default="standard")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile, stats to FILE")
    p.add_argument("--db", help="the server's database URL (default: a fresh SQLite file)")
    p.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client waits before acting (0: at once)"
    )
    args = p.parse_args()
    if not 1 <= args.tables <= 2000 or not 2 <= args.players <= 8 or not 0 < args.seconds <= 600:
        p.error("--tables 1..2000, --players 2..8, --seconds up to 600")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.db"
        python = [sys.executable, *(["-m", "cProfile", "-o", args.profile] if args.profile else [])]
        env = dict(os.environ, YANIV_WEB_SOCKETS_PER_CLIENT="0", YANIV_WEB_TABLES_PER_CLIENT="0")
        if args.think == 0:
            env.update(YANIV_WEB_MESSAGE_RATE="0", YANIV_WEB_SYNC_RATE="0")
        server = subprocess.Popen(
            [*python, "-m", "yaniv.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", args.db or str(db), "--bot-delay", "0", "--log-level", "warning"],
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
            cpu0, own0, wall0 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
            result = asyncio.run(bench(args, base))
            wall = time.perf_counter() - wall0
            result["server_cpu_percent"] = round(100 * (cpu_seconds(server.pid) - cpu0) / wall, 1)
            result["clients_cpu_percent"] = round(100 * (time.process_time() - own0) / wall, 1)
            result["cores"] = os.cpu_count()
        finally:
            server.send_signal(signal.SIGINT)  # uvicorn shuts down cleanly (and cProfile writes)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
