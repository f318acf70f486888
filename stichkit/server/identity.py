"""Who is asking, as a person: `person` is the one answer every rule about people uses.

A logged-in player is their account, on every device. Anyone else is their browser: the first
answer that needs to know sets a long random identity in a cookie (HttpOnly: no script reads it;
SameSite=Strict: no other site's request carries it), and the server keeps only its hash. A
program that sends no cookie is someone new at each request, as is a person who clears their
cookies: the identity keeps honest players from slips and casual tricks, an account is what
makes a person the same everywhere.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Annotated

from fastapi import Depends, Request, Response

from .dependencies import MaybeAccountDep
from .model import account_person

COOKIE = "stich_id"
MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
_VALUE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 32 random bytes, URL-safe


def browser_person(value: str) -> str:
    return "browser:" + hashlib.sha256(f"stichkit-browser:{value}".encode()).hexdigest()[:48]


def person(request: Request, response: Response, account: MaybeAccountDep) -> str:
    """The person asking: `account:ID` when logged in, else `browser:HASH` of the browser's
    identity cookie, which is made (and set on the answer) when the request has none."""
    if account is not None:
        return account_person(account.id)
    value = request.cookies.get(COOKIE)
    if value is None or not _VALUE.match(value):
        value = secrets.token_urlsafe(32)
        response.set_cookie(COOKIE, value, max_age=MAX_AGE, path="/", httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")  # fmt: skip
    return browser_person(value)


PersonDep = Annotated[str, Depends(person)]
