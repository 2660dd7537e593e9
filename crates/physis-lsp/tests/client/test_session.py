"""A real LSP client (pytest-lsp over stdio) driving `physis lsp` through one editing session.

Run by .ci/lsp-client-test.sh, which builds the binary and passes its path in PHYSIS_BIN.
Positions are LSP positions: zero-based lines, columns in UTF-16 code units, computed here
independently of the server (Python's own UTF-16 encoder) so a byte/char/UTF-16 mix-up fails.
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[4]
PHYSIS = os.environ.get("PHYSIS_BIN", str(ROOT / "target" / "debug" / "physis"))
PROJECTILE = (ROOT / "examples" / "projectile.hph").read_text()
URI = "file:///session/projectile.hph"


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def pos(text: str, needle: str, nth: int = 0, inside: int = 0) -> t.Position:
    """The LSP position of the `nth` occurrence of `needle`, `inside` characters into it."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += len(needle[:inside])
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return t.Position(line=line, character=utf16(text[start:at]))


def text_of(text: str, r: t.Range) -> str:
    """The text an LSP range covers (UTF-16 columns)."""
    lines = text.split("\n")

    def offset(p: t.Position) -> int:
        line = lines[p.line]
        units = 0
        for i, c in enumerate(line):
            if units >= p.character:
                return sum(len(x) + 1 for x in lines[: p.line]) + i
            units += utf16(c)
        return sum(len(x) + 1 for x in lines[: p.line]) + len(line)

    return text[offset(r.start) : offset(r.end)]


def apply(text: str, edits) -> str:
    """Apply non-overlapping text edits, last first."""
    lines = text.split("\n")

    def offset(p: t.Position) -> int:
        line = lines[p.line] if p.line < len(lines) else ""
        units, i = 0, 0
        while i < len(line) and units < p.character:
            units += utf16(line[i])
            i += 1
        return sum(len(x) + 1 for x in lines[: p.line]) + i if p.line < len(lines) else len(text)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a, b = offset(e.range.start), offset(e.range.end)
        text = text[:a] + e.new_text + text[b:]
    return text


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[PHYSIS, "lsp"]))
async def client(lsp_client: LanguageClient):
    params = t.InitializeParams(capabilities=t.ClientCapabilities())
    result = await lsp_client.initialize_session(params)
    sync = result.capabilities.text_document_sync
    assert sync == t.TextDocumentSyncKind.Incremental, sync
    yield lsp_client
    await lsp_client.shutdown_session()


async def diagnostics_after(client: LanguageClient, uri: str):
    await asyncio.wait_for(client.wait_for_notification("textDocument/publishDiagnostics"), 30)
    return list(client.diagnostics[uri])


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1):
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="physis", version=version, text=text)
        )
    )


def change(client: LanguageClient, uri: str, version: int, rng: t.Range, new: str):
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[t.TextDocumentContentChangePartial(range=rng, text=new)],
        )
    )


@pytest.mark.asyncio
async def test_edit_break_fix_hover_complete_navigate(client: LanguageClient):
    text = PROJECTILE
    open_doc(client, URI, text)
    assert await diagnostics_after(client, URI) == []

    # Break the law of v (an Acceleration) with `k·x`, a Velocity, by a ranged change.
    start = pos(text, "k·v")
    end = t.Position(line=start.line, character=start.character + utf16("k·v"))
    change(client, URI, 2, t.Range(start=start, end=end), "k·x")
    broken = text.replace("k·v", "k·x")
    diags = await diagnostics_after(client, URI)
    assert diags, "a dimension error is expected"
    d = diags[0]
    assert d.severity == t.DiagnosticSeverity.Error
    assert str(d.code).startswith("PH0"), d.code
    # The range, read back with our own UTF-16 arithmetic, is the offending expression.
    assert text_of(broken, d.range) == "[0 m/s², −g₀] − k·x", (d.range, text_of(broken, d.range))
    assert "Acceleration" in d.message and "Velocity" in d.message, d.message

    # Fix it (the same range now holds `k·x`, one character shorter in UTF-16 than bytes).
    change(client, URI, 3, t.Range(start=start, end=end), "k·v")
    assert await diagnostics_after(client, URI) == []

    # Hover: the dimension and SI unit of expressions under the cursor.
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=URI), position=pos(text, "v₀·[", inside=2))
    )
    assert "Velocity · m/s" in h.contents.value, h.contents.value
    assert text_of(text, h.range) == "v₀·[cos(α), sin(α)]"
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=URI), position=pos(text, "sin(α)", inside=1))
    )
    assert text_of(text, h.range) == "sin(α)" and "Dimensionless" in h.contents.value, h.contents.value
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=URI), position=pos(text, "v₀·[", inside=1))
    )
    assert "param v₀ : Velocity = 30 m/s" in h.contents.value and "value: 30 m/s" in h.contents.value
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=URI), position=pos(text, "rk45"))
    )
    assert "scheme rk45" in h.contents.value, h.contents.value

    # Completion: a unit as typed after a number, and `alp` → α.
    line = text.count("\n", 0, text.index("  record every"))
    change(client, URI, 4, t.Range(start=t.Position(line=line, character=0), end=t.Position(line=line, character=0)),
           "  param w : Velocity = 5 km\n")
    await diagnostics_after(client, URI)
    items = await client.text_document_completion_async(
        t.CompletionParams(text_document=t.TextDocumentIdentifier(uri=URI),
                           position=t.Position(line=line, character=utf16("  param w : Velocity = 5 km")))
    )
    labels = [i.label for i in items]
    assert "km/h" in labels and "kg" not in labels, labels
    kmh = next(i for i in items if i.label == "km/h")
    assert kmh.text_edit.new_text == "km/h" and kmh.text_edit.range.start.character == utf16("  param w : Velocity = 5 ")
    change(client, URI, 5, t.Range(start=t.Position(line=line, character=0), end=t.Position(line=line + 1, character=0)),
           "  observe q ≔ alp\n")
    await diagnostics_after(client, URI)
    items = await client.text_document_completion_async(
        t.CompletionParams(text_document=t.TextDocumentIdentifier(uri=URI),
                           position=t.Position(line=line, character=utf16("  observe q ≔ alp")))
    )
    alpha = [i for i in items if i.label == "alpha"]
    assert alpha and alpha[0].text_edit.new_text == "α", [i.label for i in items]
    change(client, URI, 6, t.Range(start=t.Position(line=line, character=0), end=t.Position(line=line + 1, character=0)), "")
    assert await diagnostics_after(client, URI) == []

    # Go to definition of `k` in the law of v, and every reference of v₀.
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=t.TextDocumentIdentifier(uri=URI), position=pos(text, "k·v"))
    )
    assert loc.range.start == pos(text, "k : Frequency"), loc
    refs = await client.text_document_references_async(
        t.ReferenceParams(text_document=t.TextDocumentIdentifier(uri=URI), position=pos(text, "v₀·["),
                          context=t.ReferenceContext(include_declaration=True))
    )
    assert sorted((r.range.start.line, r.range.start.character) for r in refs) == sorted(
        [(p.line, p.character) for p in (pos(text, "v₀ :"), pos(text, "v₀·["))]
    )


@pytest.mark.asyncio
async def test_format_and_quick_fix(client: LanguageClient):
    uri = "file:///session/decay.hph"
    text = "simulate Decay {\nparam k : Frequency = 2 Hz\n      state x : Length = 1 m\n  law x' = −k·x\n  integrate rk4\n  stop when t ≥ 1 s\n}\n"
    open_doc(client, uri, text)
    diags = await diagnostics_after(client, uri)
    assert [str(d.code) for d in diags] == ["PH0103"], diags

    # The quick fix adds a step; applied, the file checks clean.
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(text_document=t.TextDocumentIdentifier(uri=uri), range=diags[0].range,
                           context=t.CodeActionContext(diagnostics=diags))
    )
    assert [a.title for a in actions] == ["add `step 1 ms`"], actions
    fixed = apply(text, actions[0].edit.changes[uri])
    assert "integrate rk4 step 1 ms\n" in fixed
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    assert await diagnostics_after(client, uri) == []

    # Formatting gives the canonical layout, and formatting that again changes nothing.
    edits = await client.text_document_formatting_async(
        t.DocumentFormattingParams(text_document=t.TextDocumentIdentifier(uri=uri),
                                   options=t.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    formatted = apply(fixed, edits)
    assert formatted.splitlines()[1:3] == ["  param k : Frequency = 2 Hz", "  state x : Length = 1 m"], formatted
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=formatted)],
        )
    )
    await diagnostics_after(client, uri)
    again = await client.text_document_formatting_async(
        t.DocumentFormattingParams(text_document=t.TextDocumentIdentifier(uri=uri),
                                   options=t.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert not again, again
