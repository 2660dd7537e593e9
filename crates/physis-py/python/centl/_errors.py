"""The exception the exact engine raises: the protocol's snake_case code, its message and
its named fields (``path`` and the like) as a dict."""

from __future__ import annotations

import json


class CentlError(Exception):
    """A request the exact engine refuses (``code`` as in docs/protocol.md)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        fields: str | None = None,
        **_: object,
    ) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.fields: dict = json.loads(fields) if fields else {}
        self.path: str | None = self.fields.get("path")
        self.span = self.path
