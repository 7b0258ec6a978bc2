"""The plot of an arena report: win rates with their intervals and mean score curves."""

from __future__ import annotations

from .report import Report

__all__ = ["plot"]


def plot(report: Report, path: str) -> None:
    """Draw win rates with 95% error bars and mean score curves into a PNG at *path*.

    Needs matplotlib (the ``plots`` extra); ``ImportError`` naming it otherwise.
    """
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install 'yaniv[plots]'") from e

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = [b.bot for b in report.bots]
    rates = [b.win_rate for b in report.bots]
    errors = [[b.win_rate - b.ci[0] for b in report.bots], [b.ci[1] - b.win_rate for b in report.bots]]
    left.bar(names, rates, yerr=errors, capsize=6, color="#4c72b0")
    left.axhline(1 / report.players, color="grey", linestyle="--", linewidth=1, label="even share")
    left.set_ylim(0, 1)
    left.set_ylabel("games won per seat-game (95% CI)")
    left.set_title("Win rate")
    left.legend()
    for b in report.bots:
        enough = max(1, b.games // 10)
        curve = [v for v, c in zip(b.score_curve, b.curve_counts, strict=True) if c >= enough]
        right.plot(range(1, len(curve) + 1), curve, marker=".", label=b.bot)
    right.set_xlabel("round")
    right.set_ylabel("mean total after the round")
    right.set_title("Mean score")
    right.legend()
    fig.suptitle(f"{report.rules}, {report.players} players, {report.games} games")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
