"""A manifest's views are read whole from a window of its text, or by the streaming parser where that read does not
take the file as it is: the two give the same views and the same refusals, whatever the window's size."""

import json

import pytest
from inventories import link, view

from jfi import manifest
from jfi.errors import JfiError

VIEWS = [
    view("home", links=[link("Fares ☂ 𝄞", "/f"), link("Tab\there", "/t")], title='Harbor "home" \\ é'),
    view("fares", links=[link("x" * 300, "/x")]),
    view("big", links=[link(f"L{i}", f"/l{i}", depth=1.5e-7, n=-1234567890123456789) for i in range(40)]),
]
HEADER = {"schema": manifest.SCHEMA, "site": "harbor", "view_count": len(VIEWS)}


def text(views=VIEWS, *, indent=None, views_first=False, bom=False, tail="") -> bytes:
    doc = {"views": views, **HEADER} if views_first else {**HEADER, "views": views}
    body = json.dumps(doc, indent=indent, ensure_ascii=indent is None)
    return ("\ufeff" if bom else "").encode() + body.encode() + tail.encode()


def outcome(path, views_of):
    """The views one reader gives, or its refusal's code, field, line and message."""
    try:
        return list(views_of(path))
    except JfiError as e:
        return (e.code, e.field, e.line, e.message)


def streamed(path):
    """The views by the streaming reader alone, after the same screening."""
    real = manifest._views_read_whole

    def never(_path):
        raise manifest._NotPlain
        yield

    manifest._views_read_whole = never
    try:
        yield from manifest.views_of(path)
    finally:
        manifest._views_read_whole = real


SHAPES = {
    "compact": text(),
    "indented, not ASCII": text(indent=2),
    "views first": text(views_first=True),
    "byte order mark": text(bom=True),
    "white space after": text(tail="\n\n  \t"),
    "a key twice in a link": text().replace(
        b'"name_source": "content"', b'"name_source": "content", "name_source": "x"'
    ),
    "a key twice in a view": text().replace(b'"view_id": "fares"', b'"view_id": "fares", "view_id": "fares2"'),
    "NaN": text().replace(b'"depth": 1.5e-07', b'"depth": NaN'),
    "Infinity": text().replace(b'"depth": 1.5e-07', b'"depth": -Infinity'),
    "a raw tab in a string": text().replace(b"Tab\\there", b"Tab\there"),
    "text after the document": text(tail=' {"more": 1}'),
    "cut short": text()[:-40],
    "a missing comma": text().replace(b'}, {"view_id": "fares"', b'} {"view_id": "fares"'),
    "not UTF-8": text().replace(b"Fares", b"F\xffres"),
    "a view not an object": text(views=[VIEWS[0], 7]),
    "a view id twice": text(views=[VIEWS[0], VIEWS[0]]),
    "no views": text(views=[]),
    "views not an array": text(views={"a": 1}),
    "an integer past 64 bits": text().replace(b"-1234567890123456789", b"-12345678901234567890"),
    "an integer at -2**63": text().replace(b"-1234567890123456789", b"-9223372036854775808"),
    "an integer at 2**63 - 1": text().replace(b"-1234567890123456789", b"9223372036854775807"),
    "a float past float's range": text().replace(b"1.5e-07", b"1.5e400"),
}


@pytest.mark.parametrize("window", [1 << 24, 7, 64, 1000])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_window_read_gives_what_the_streaming_parser_gives(tmp_path, monkeypatch, shape, window):
    path = tmp_path / "manifest.json"
    path.write_bytes(SHAPES[shape])
    monkeypatch.setattr(manifest, "WINDOW", window)
    whole = outcome(path, manifest.views_of)
    assert whole == outcome(path, streamed), shape
    if shape in ("compact", "indented, not ASCII", "views first", "byte order mark", "white space after"):
        assert [v["view_id"] for v in whole] == ["home", "fares", "big"]
        assert whole[2]["inventory"]["links"][0]["n"] == -1234567890123456789


def test_a_plain_manifest_is_read_without_the_streaming_parser(tmp_path, monkeypatch):
    path = tmp_path / "manifest.json"
    path.write_bytes(SHAPES["indented, not ASCII"])
    monkeypatch.setattr(manifest, "_views_streamed", lambda *a, **k: pytest.fail("read by the streaming parser"))
    assert len(list(manifest.views_of(path))) == 3


def test_every_shape_is_a_file_of_its_own():
    assert len(set(SHAPES.values())) == len(SHAPES)


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


NESTED = [
    {"a": [[["x"]]], "b": '"[[[{{{"', "c": "\\", "d": '\\"]]]', "e": [{"f": ["", "", "]["]}]},
    [[[[[[[]]]]]]],
    {"k": ["\\\\\\", '"', "", "", '""[', {"": [""]}]},
]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 22])
@pytest.mark.parametrize("doc", NESTED, ids=range(len(NESTED)))
def test_the_screen_counts_the_nesting_outside_strings_only(tmp_path, monkeypatch, chunk, doc):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    monkeypatch.setattr(manifest, "SCREEN_CHUNK", chunk)
    assert manifest._screened(path) == (None, depth(doc))
