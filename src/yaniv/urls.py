"""URLs of the services a server uses (its database, its Redis), as they may be shown.

A URL given on the command line or in the environment may carry a password; whatever
prints or logs one (the command line, the web server) shows it through
:func:`shown_url`. The standard library only: the command line and the web server
both import it, and neither may import the other.
"""

from __future__ import annotations

import re

__all__ = ["shown_url"]

# scheme://user:password@host…: the user has no ':', '/' nor '@'; the password runs to the
# first '@' (a '/' in it is allowed, as SQLAlchemy reads URLs; an '@' has to be %40)
_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/@]*):[^@]*@")


def shown_url(url: str) -> str:
    """*url* to print or log: its password, if any, as ``***``; a URL without one as it is.

    >>> shown_url("postgresql+psycopg://yaniv:s3cret@db:5432/yaniv")
    'postgresql+psycopg://yaniv:***@db:5432/yaniv'
    >>> shown_url("redis://:s3cret@cache:6379/0")
    'redis://:***@cache:6379/0'
    >>> shown_url("redis://cache:6379/0")
    'redis://cache:6379/0'
    >>> shown_url("sqlite:////srv/yaniv@home/games.db")
    'sqlite:////srv/yaniv@home/games.db'
    """
    return _PASSWORD.sub(r"\1:***@", url, count=1)
