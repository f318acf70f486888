"""Passwords and session cookies.

Passwords are hashed with argon2id (argon2-cffi, its RFC 9106 parameters), never stored or
logged as given. A login for a name nobody has still verifies a password against a hash, so the
answer takes as long as for a real account.

A session cookie is `SECRET.SIGNATURE`: 256 random bits, signed by itsdangerous (its `Signer`:
HMAC-SHA256 under a key derived from the server's secret, settings.secret, else one made once and
kept in the database, shared by every process). The signing is the library's, not ours; what
stays ours is the session itself: a forged or altered cookie fails the signature and never
reaches the database, and a signed one opens a session only while the database holds the hash
of its secret, so logging out, logging out everywhere, a new password and a ban each end
sessions for good (a signature alone can never be taken back).
"""

from __future__ import annotations

import hashlib
import secrets
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, Signer

PASSWORD_MIN = 8
PASSWORD_MAX = 256  # characters; longer only costs the server hashing time
COOKIE = "stich_session"

_hasher = PasswordHasher()


@cache
def _dummy() -> str:
    """What a login for an unknown name is checked against (made once, when first needed)."""
    return _hasher.hash(secrets.token_urlsafe(16))


class BadPassword(ValueError):
    """A new password that is not allowed; the message says what is."""


def check_password(password: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise BadPassword(f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise BadPassword(f"a password has at most {PASSWORD_MAX} characters")
    return password


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether `password` is the one hashed (None: no such account; checked anyway, for the time)."""
    try:
        return _hasher.verify(password_hash or _dummy(), password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """The hash was made with older parameters: hash the password again at this login."""
    return _hasher.check_needs_rehash(password_hash)


@cache
def _signer(secret: str) -> Signer:
    return Signer(secret, salt="stichkit-session", key_derivation="hmac", digest_method=hashlib.sha256)


def new_session(secret: str) -> tuple[str, str]:
    """A new session: (the cookie's value, the hash the database keeps)."""
    session = secrets.token_urlsafe(32)
    return _signer(secret).sign(session).decode(), session_hash(session)


def session_hash(session: str) -> str:
    return hashlib.sha256(f"stichkit-session:{session}".encode()).hexdigest()


def read_cookie(secret: str, value: str | None) -> str | None:
    """The hash of the session a cookie names, if its signature holds (None: no cookie, or a
    forged or altered one)."""
    if not value or len(value) > 200:
        return None
    try:
        session = _signer(secret).unsign(value).decode()
    except (BadSignature, UnicodeError):
        return None
    return session_hash(session) if session else None
