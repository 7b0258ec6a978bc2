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
    .venv/bin/python bench/web_load.py --servers 2 --think 0.5          # two processes
    .venv/bin/python bench/web_load.py --servers 2 --think 0.5 --failover

``--servers N`` starts N processes on one PostgreSQL and one Redis (private ones started
here from the machine's binaries, unless ``--db`` and ``--redis`` name them); the tables
are made on each in turn and ``--spread`` says where the seats connect. ``--failover``
kills the last process (kill -9) half-way through: its clients reconnect to another,
and the JSON says how long the longest table went silent (and the median table's
longest silence), and how long after the kill the last table was heard from again (the
silence less the clients' thinking before the kill); ``lease_changes`` counts the tables
that changed hands (at a failover the dead server's; more would be leases lapsing under load).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(card: str) -> int:
    return 0 if card == "JK" else VALUES.get(card[:-1]) or int(card[:-1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    legal: list[dict[str, Any]] = [a for a in view["legal"] if a["type"] != "slap"]
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
        self.killed_at: float | None = None  # --failover: when the server was killed (perf_counter)


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
        self.last_arrival = 0.0
        self.gaps: list[float] = []  # seconds between messages, while measuring
        self.back_at: float | None = None  # --failover: the first message after the kill

    def arrival_any(self, now: float) -> None:
        """Any update or welcome reached a client of the table (for the longest silence)."""
        if self.stats.measuring and self.last_arrival:
            self.gaps.append(now - self.last_arrival)
        self.last_arrival = now
        killed = self.stats.killed_at
        if killed is not None and self.back_at is None and now > killed:
            self.back_at = now

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


async def client(urls: list[str], run: TableRun, token: str, stop: asyncio.Event, args_think: float) -> None:
    """One seat's websocket to ``urls[0]``; when that server dies, to the next one (``hello`` with since)."""
    table = run.table_id
    version = 0
    while not stop.is_set():
        try:
            ws = await connect(f"{urls[0]}/ws/{table}", max_size=2**22, open_timeout=30)
        except OSError:
            urls.append(urls.pop(0))  # that server has gone: try the next
            await asyncio.sleep(0.2)
            continue
        async with ws:
            hello: dict[str, Any] = {"type": "hello", "token": token}
            if version:
                hello["since"] = version
            await ws.send(json.dumps(hello))
            seat, acted, readied = None, -1, -1
            next_table = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    run.connected -= 1
                    if len(urls) > 1:
                        urls.append(urls.pop(0))
                    next_table = table  # the same table again, through another server
                    break
                now = time.perf_counter()
                m = json.loads(text)
                kind = m["type"]
                if kind == "welcome":
                    seat = m["seat"]
                    run.connected += 1
                    run.arrival_any(now)
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
                    run.arrival_any(now)
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
        if next_table == table:
            continue
        version = 0
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


def lease_changes(base: str) -> int:
    """Tables a server took over from another or lost to one (its yaniv_lease_changes_total)."""
    for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
        if line.startswith("yaniv_lease_changes_total "):
            return int(float(line.split()[1]))
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bench(args: argparse.Namespace, bases: list[str], kill: Any = None) -> dict[str, Any]:
    """Make the tables (table k on server k mod N), connect their seats, measure for --seconds.

    ``--spread any``: seat j of table k connects to server (k + j) mod N, as a balancer
    without sticky sessions spreads them (most tables have seats on every server);
    ``table``: every seat to the table's own server, as a balancer hashing the path does.
    *kill*: called half-way through (``--failover``); returns when the server is dead.
    """
    stats = Stats()
    stop = asyncio.Event()
    ws_urls = [base.replace("http://", "ws://") for base in bases]
    runs: list[TableRun] = []
    tasks: list[asyncio.Task[None]] = []
    https = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]
    try:
        for k in range(args.tables):
            table, tokens = await make_table(https[k % len(bases)], args.players, args.rules)
            run = TableRun(args.players, stats)
            run.table_id = table
            runs.append(run)
            for j, tok in enumerate(tokens):
                first = (k + j) % len(bases) if args.spread == "any" else k % len(bases)
                order = ws_urls[first:] + ws_urls[:first]
                tasks.append(asyncio.create_task(client(order, run, tok, stop, args.think)))
            await asyncio.sleep(0)
    finally:
        for http in https:
            await http.aclose()
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    failover: dict[str, Any] = {}
    if kill is not None:
        await asyncio.sleep(args.seconds / 2)
        killed = stats.killed_at = time.perf_counter()
        await asyncio.to_thread(kill)
        await asyncio.sleep(args.seconds / 2)
        silent = sorted(  # how long each table went without a message after the kill
            max([g for g in r.gaps if g > 0] or [0.0]) for r in runs
        )
        # from the kill to each table's first message after it (the silence less the clients'
        # thinking before the kill): the servers' part of the failover
        back = sorted((r.back_at or time.perf_counter()) - killed for r in runs)
        failover = {
            "failover_killed_at_s": round(killed - t0, 1),
            "failover_longest_silence_s": round(silent[-1], 2) if silent else None,
            "failover_p50_longest_silence_s": round(silent[len(silent) // 2], 2) if silent else None,
            "failover_longest_back_after_kill_s": round(back[-1], 2) if back else None,
        }
    else:
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
        "servers": len(bases),
        "spread": args.spread,
        **failover,
    }


def start_server(port: int, db: str, env: dict[str, str], profile: str | None, redis: str | None) -> Any:
    python = [sys.executable, *(["-m", "cProfile", "-o", profile] if profile else [])]
    extra = ["--redis", redis] if redis else []
    return subprocess.Popen(
        [*python, "-m", "yaniv.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db, "--bot-delay", "0", "--log-level", "warning", *extra],
        env=env,
    )  # fmt: skip


def wait_up(base: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(base + "/api/presets", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)


@contextlib.contextmanager
def services(args: argparse.Namespace) -> Iterator[tuple[str | None, str | None]]:
    """The database and Redis of a run: given, or (several servers) private ones started here."""
    if args.servers == 1:
        yield args.db, args.redis
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.web.postgres import private_postgres
    from tests.web.redis_server import private_redis

    with contextlib.ExitStack() as stack:
        db = args.db or stack.enter_context(private_postgres())
        redis = args.redis
        if redis is None:
            server = stack.enter_context(private_redis(own=True))
            redis = server if isinstance(server, str) else server.url
        yield db, redis


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--rules", default="standard")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile, stats to FILE")
    p.add_argument("--db", help="the servers' database URL (default: a fresh SQLite file; with --servers "
                   "2 or more, a private PostgreSQL started here)")  # fmt: skip
    p.add_argument("--redis", help="the servers' Redis URL (--servers 2 or more; default: a private one)")
    p.add_argument("--servers", type=int, default=1, help="server processes on one database and Redis (1)")
    p.add_argument(
        "--spread",
        choices=["any", "table"],
        default="any",
        help="where each websocket goes: any server in turn (a balancer without sticky sessions; "
        "most seats relayed) or its table's own (a balancer hashing the path)",
    )
    p.add_argument(
        "--failover", action="store_true", help="kill -9 the last server half-way through (--servers 2+)"
    )
    p.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client waits before acting (0: at once)"
    )
    args = p.parse_args()
    if not 1 <= args.tables <= 2000 or not 2 <= args.players <= 8 or not 0 < args.seconds <= 600:
        p.error("--tables 1..2000, --players 2..8, --seconds up to 600")
    if not 1 <= args.servers <= 8 or (args.failover and args.servers < 2):
        p.error("--servers 1..8; --failover needs --servers 2 or more")
    with tempfile.TemporaryDirectory() as tmp, services(args) as (db_url, redis):
        db = db_url or str(Path(tmp) / "load.db")
        env = dict(os.environ, YANIV_WEB_SOCKETS_PER_CLIENT="0", YANIV_WEB_TABLES_PER_CLIENT="0")
        if args.think == 0:
            env.update(YANIV_WEB_MESSAGE_RATE="0", YANIV_WEB_SYNC_RATE="0")
        ports = [free_port() for _ in range(args.servers)]
        servers = []
        for port in ports:  # one after the other: the first migrates the database
            servers.append(start_server(port, db, env, args.profile, redis))
            wait_up(f"http://127.0.0.1:{port}")
        bases = [f"http://127.0.0.1:{port}" for port in ports]

        def kill() -> None:
            servers[-1].kill()
            servers[-1].wait(10)

        try:
            cpu0 = [cpu_seconds(s.pid) for s in servers]
            own0, wall0 = time.process_time(), time.perf_counter()
            result = asyncio.run(bench(args, bases, kill if args.failover else None))
            wall = time.perf_counter() - wall0
            used = [cpu_seconds(s.pid) - c for s, c in zip(servers, cpu0, strict=True) if s.poll() is None]
            result["server_cpu_percent"] = round(100 * sum(used) / wall, 1)
            result["clients_cpu_percent"] = round(100 * (time.process_time() - own0) / wall, 1)
            result["cores"] = os.cpu_count()
            if args.servers > 1:  # tables that changed hands: the dead server's at a failover, else none
                live = [b for b, s in zip(bases, servers, strict=True) if s.poll() is None]
                result["lease_changes"] = sum(lease_changes(b) for b in live)
        finally:
            for server in servers:
                if server.poll() is None:
                    server.send_signal(signal.SIGINT)  # uvicorn shuts down cleanly (and cProfile writes)
            for server in servers:
                try:
                    server.wait(20)
                except subprocess.TimeoutExpired:
                    server.kill()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
