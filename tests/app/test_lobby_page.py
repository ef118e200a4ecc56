"""The lobby's pages without a browser (issue 38): without accounts on the server the
lobby says that links remain, in both languages; her matches waiting for her move
are counted from the store (app.lobby.waiting)."""
from __future__ import annotations

from engine.record import Ruleset
from store import GameStore
from store.access import Principal
from store.lobby_rules import Outcome

from app import i18n
from app.lobby import board, waiting
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


class _EndsAfterFirstRead:
    """The store, with a lobby match that ends (is resigned and rated) just after the
    page's first read of the lobby: another player's save landing mid-run."""

    def __init__(self, store: GameStore, gid: str):
        self.store, self.gid, self.ended = store, gid, False

    def _then_end(self, result):
        if not self.ended:
            self.ended = True
            g = self.store.open(self.gid)
            self.store.save(self.gid, g.record, metadata=g.metadata, expected_version=g.info.version,
                            outcome=Outcome("fugitive", "resigned"))
        return result

    def live_lobby_matches(self):
        return self._then_end(self.store.live_lobby_matches())

    def recent_results(self, limit: int = 10):
        return self._then_end(self.store.recent_results(limit))


def test_a_match_ending_mid_run_is_never_shown_both_live_and_ended(tmp_path):
    """The lobby reads its live matches and its results in two queries; a match that
    ends between them was drawn both as a match to watch and as a result (Frank's page
    in tests/app/test_browser_lobby.py, once under load). Read the results first and it
    is at worst in neither, until the next run a quarter second later."""
    with GameStore(tmp_path / "g.sqlite3") as store:
        alice = Principal.account("https://id.example", "alice", "Alice")
        bob = Principal.account("https://id.example", "bob", "Bob")
        ch = store.post_challenge(alice, "marshal", Ruleset(), "live")
        joined = Matches(store, bob).accept(ch.id, 3)
        assert isinstance(joined, tuple)
        gid = joined[0]
        live, recent = board(_EndsAfterFirstRead(store, gid))
        assert not {m.game_id for m in live} & {m.game_id for m in recent}
        live, recent = board(store)  # the next run: a result, not a match to watch
        assert [m.game_id for m in recent] == [gid] and live == []
