"""The exception Physis raises: a diagnostic code, a message and, where a source is at fault,
the span (byte offsets) with related spans, hints and every diagnostic of the check."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Diagnostic:
    """One finding of checking a source."""

    code: str
    severity: str
    message: str
    span: tuple[int, int]
    label: str = ""
    line: int | None = None
    column: int | None = None
    related: list[tuple[str, tuple[int, int]]] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}: " if self.line is not None else ""
        return f"{where}{self.severity}[{self.code}]: {self.message}"


class PhysisError(Exception):
    """A model that does not check or run, or an argument Physis refuses.

    ``code`` is the stable diagnostic code (``PH0201``), ``message`` the text, ``span`` the
    byte range of the source at fault (``None`` when the failure is not in the source),
    ``related`` other places as ``(message, span)``, ``hints`` suggestions and
    ``diagnostics`` every :class:`Diagnostic` of the check.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        span: tuple[int, int] | None = None,
        related: list[tuple[str, tuple[int, int]]] | None = None,
        hints: list[str] | None = None,
        diagnostics: list[dict] | None = None,
        fields: str | None = None,
    ) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.span = tuple(span) if span is not None else None
        self.related = list(related or [])
        self.hints = list(hints or [])
        self.diagnostics = [Diagnostic(**d) for d in (diagnostics or [])]
