"""The whole suite: say which build of yaniv it tests (``make test``: pure Python)."""

from __future__ import annotations

import yaniv


def pytest_report_header() -> str:
    return f"{yaniv.build_name()}: {yaniv.__file__.rsplit('/', 2)[0]}"
