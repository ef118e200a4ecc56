"""The match's last rough edges (issue 32), through AppTest: the guess grids offer only
the numbers the rules let her name; the status says when only the pass is left; the
end says "you won" / "you lost" to a person who played one side, in English and
Korean; the tutorial's last step names playing a friend."""
from __future__ import annotations

from engine import apply, fugitive_view, guessable_numbers, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.state import face_up_sprint_cards
from store import GameStore
from store.access import new_owner_key

from app import match_logic as ml
from app.match_meta import MatchMeta

from .helpers import no_exception, status, texts


def _until(pred, seeds=range(80)):
    """(seed, state): the first state of a game of random bots that meets ``pred``."""
    for seed in seeds:
        state, f, m = new_game(seed), RandomFugitive(seed), RandomMarshal(seed)
        while not state.is_over and not pred(state):
            bot = f.choose(fugitive_view(state)) if state.current_player == "fugitive" else m.choose(marshal_view(state))
            state = apply(state, bot)
        if pred(state):
            return seed, state
    raise AssertionError("no game reached the state")

KEY = new_owner_key()  #: the browser that made the matches stored here (a match without links is its own)


def _store(db, state, mode: str, seed: int) -> str:
    meta = {"seed": seed, "mode": mode, "fugitive_bot": "random", "marshal_bot": "random"}
    return GameStore(db).create(state.record(), kind="match", metadata=meta, owner_key=KEY).id


# --------------------------------------------------------------------------- 3. face-up numbers
def test_the_guess_grids_never_offer_a_face_up_number(make_app, db):
    for phase in ("marshal_guess", "manhunt"):
        seed, state = _until(lambda s, phase=phase: s.phase == phase and face_up_sprint_cards(s.public_row)
                             and len(s.up_numbers) > 2)
        at = make_app(page="match", game=_store(db, state, "human_marshal", seed), owner=KEY)
        no_exception(at)
        grid = next(w for w in at.pills if w.key.startswith("mc_g_"))
        offered = {int(str(x).split()[0].rstrip("◆")) for x in grid.options}  # its chance or ◆ after it
        face_up = set(state.up_numbers) | set(face_up_sprint_cards(state.public_row))
        assert not offered & face_up, (phase, sorted(offered & face_up))
        assert offered == set(guessable_numbers(state)), phase  # exactly what the rules let her name


# --------------------------------------------------------------------------- 5. words per side
def test_when_only_the_pass_is_left_the_status_says_so_in_both_languages(make_app, db):
    seed, state = _until(lambda s: s.phase == "fugitive_place" and not fugitive_view(s).legal_hideouts())
    gid = _store(db, state, "human_fugitive", seed)
    at = make_app(page="match", game=gid, owner=KEY)
    no_exception(at)
    assert f"Your turn · Fugitive · pass: no card of your hand can follow {state.previous}" in status(at)
    assert "place a hideout or pass" not in status(at)
    ko = make_app(page="match", game=gid, lang="ko", owner=KEY)
    assert f"패스하세요: {state.previous} 다음에 놓을 카드가 없습니다" in status(ko)


def test_the_end_says_you_won_or_you_lost_to_the_player_and_who_won_to_watchers(make_app, db):
    seed, over = _until(lambda s: s.is_over and s.winner == "marshal")
    for mode, lang, want, never in (
        ("human_fugitive", "en", "Game over — You lost.", "The Marshal won."),
        ("human_marshal", "en", "Game over — You won.", "The Marshal won."),
        ("human_fugitive", "ko", "게임 종료 — 졌습니다.", "수사관이 이겼습니다."),
        ("human_marshal", "ko", "게임 종료 — 이겼습니다.", "수사관이 이겼습니다."),
        ("ai_ai", "en", "Game over — The Marshal won.", "You "),
        ("hotseat", "en", "Game over — The Marshal won.", "You "),
    ):
        at = make_app(page="match", game=_store(db, over, mode, seed), lang=lang, owner=KEY)
        no_exception(at)
        assert want in status(at) and never not in status(at), (mode, lang, status(at))
    # a match by links: each seat reads its own result, a watcher who won
    meta = MatchMeta(seed, ml.ONLINE, claim_after=86400)
    mkey, fkey = new_owner_key(), new_owner_key()
    store = GameStore(db)
    inv = store.create_match(over.record(), side="marshal", owner_key=mkey, metadata=meta.to_json())
    store.join(inv.game.id, inv.secret("fugitive"), fkey)
    assert "You won." in status(make_app(page="match", game=inv.game.id, owner=mkey))
    assert "You lost." in status(make_app(page="match", game=inv.game.id, owner=fkey))
    watcher = status(make_app(page="match", game=inv.game.id, s=inv.secret("watcher")))
    assert "The Marshal won." in watcher and "You " not in watcher


def test_the_tutorials_last_step_names_playing_a_friend(make_app, db):
    from app import learning

    for lang, friend in (("en", "a friend on another phone"), ("ko", "다른 휴대폰의 친구")):
        at = make_app(page="tutorial", lang=lang)
        for _ in range(len(learning.STEPS) - 1):
            at.button(key="tut_next").click().run()
        no_exception(at)
        assert "tut_play" in [b.key for b in at.button]  # the last step
        assert friend in texts(at), lang
