"""Small readers over an AppTest tree, and the browser the tests' pages belong to."""
from __future__ import annotations

from store.access import new_owner_key

#: the owner key of the tests' own browser (``make_app(owner=OWNER)``): a game a test
#: stores with it opens on its pages, as a game opens only in the browser whose list
#: holds it
OWNER = new_owner_key()


def html_bodies(at) -> list[str]:
    return [h.proto.body for h in at.html]


def status(at) -> str:
    for body in html_bodies(at):
        if 'data-testid="fg-status"' in body:
            return body
    return ""


def keys(widgets) -> list[str]:
    """The keys of the widgets, without the correction panel's (``corr_*``): what the
    page offers to enter next."""
    return [w.key for w in widgets if not (w.key or "").startswith("corr_")]


def texts(at) -> str:
    """Every message, markdown, caption and html body on the page, joined."""
    parts = []
    for coll in (at.error, at.warning, at.success, at.info, at.markdown, at.caption):
        parts += [str(e.value) for e in coll]
    parts += html_bodies(at)
    parts += [str(e.value) for e in at.text]
    return "\n".join(parts)


def no_exception(at) -> None:
    assert not at.exception, [e.value for e in at.exception]


def as_entries(text: str) -> str:
    """The CLI's English as the app says it: an event index (from 0) as the entry
    number (from 1), as in the app's list of entries."""
    import re

    return re.sub(r"\bevent (\d+)", lambda m: f"entry {int(m.group(1)) + 1}", text)
