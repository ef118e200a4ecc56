"""The lobby's pages without a browser (issue 38): without accounts on the server the
lobby says that links remain, in both languages; her matches waiting for her move
are counted from the store (app.lobby.waiting)."""
from __future__ import annotations

from engine.record import Ruleset
from store import GameStore
from store.access import Principal

from app import i18n
from app.lobby import waiting
from app.match_control import Matches


def test_without_accounts_the_lobby_says_links_remain(make_app):
    for lang in ("en", "ko"):
        at = make_app(page="lobby", lang=lang)
        assert not at.exception
        assert any(i18n.STRINGS[lang]["lobby_no_accounts"] in x.value for x in at.info)
        assert not [b for b in at.button if b.key and b.key.startswith("lb_")]
    at = make_app(page="player")
    assert not at.exception and any("Links remain" in x.value for x in at.info)


def test_her_matches_waiting_for_her_move(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        alice = Principal.account("https://id.example", "alice", "Alice")
        bob = Principal.account("https://id.example", "bob", "Bob")
        for _ in range(2):
            ch = store.post_challenge(alice, "marshal", Ruleset(), "slow")
            Matches(store, bob).accept(ch.id, 3)
        # the Fugitive places his hideouts first: both of Bob's, none of Alice's
        assert len(waiting(Matches(store, bob))) == 2 and waiting(Matches(store, alice)) == []
