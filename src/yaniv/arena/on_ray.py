"""The arena's deals on a Ray cluster (the ``ray`` extra): ``yaniv arena --ray [ADDRESS]``.

Each deal (every rotation of the line-up on one seed) is one Ray task running the same
function the local process pool runs, so a match gives the same games, game for game,
on a cluster as on one machine; the results are taken in deal order. A few deals per
CPU of the cluster are in flight at a time, so a Ctrl-C or a failing game cancels
little work. The options of ``cmd:`` bots (``--bot-time-limit``, ``--bot-stderr``)
travel to the workers in the tasks' environment, and the programs start there: they
must exist at the same path on every node.

*address* is Ray's: ``""`` or ``"local"`` starts a private local cluster for this run
(all CPUs of the machine, no dashboard), ``"auto"`` joins the cluster this machine is
part of, ``"ray://HOST:PORT"`` a remote one through Ray Client. A cluster already
initialised in this process (``ray.init`` called by the caller) is used as it is.
"""

from __future__ import annotations

import os
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..bots import EXTERNAL_OPTIONS_ENV

__all__ = ["ClusterError", "ray_results"]

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(ValueError):
    """Ray is not installed, or its cluster cannot be reached (the message starts ``--ray:``)."""


LOCAL = ("", "local")
"""The addresses that mean: start a private cluster on this machine."""


def _ray() -> Any:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ClusterError("--ray needs Ray: pip install 'yaniv[ray]'") from None
    return ray


def _connect(ray: Any, address: str) -> bool:
    """Join or start the cluster; whether this call started it (and so shuts it down)."""
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a private local cluster needs no token
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "error"}
    try:
        with warnings.catch_warnings():  # Ray's own warnings (a timed-out client) would make it two lines
            warnings.simplefilter("ignore")
            if address in LOCAL:
                ray.init(**kwargs)
            else:
                ray.init(address=address, **kwargs)
    except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError...: one line
        first = str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__
        raise ClusterError(f"--ray: cannot reach the Ray cluster {address or 'local'!r}: {first}") from None
    return True


def ray_results(play: Callable[[T], R], tasks: list[T], address: str) -> Iterator[R]:
    """``play(task)`` for every task on the Ray cluster at *address*, results in task order."""
    ray = _ray()
    started = _connect(ray, address)
    env = {name: os.environ[name] for name in EXTERNAL_OPTIONS_ENV.values() if name in os.environ}
    remote = ray.remote(play).options(runtime_env={"env_vars": env} if env else None, max_retries=0)
    window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    todo = iter(tasks)
    flying: deque[Any] = deque(remote.remote(t) for _, t in zip(range(window), todo, strict=False))
    try:
        while flying:
            result = ray.get(flying.popleft())
            nxt = next(todo, None)
            if nxt is not None:
                flying.append(remote.remote(nxt))
            yield result
    finally:
        for ref in flying:  # an interrupt, a failing game, an abandoned iteration: stop the rest
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
