"""Match, Learning and the tutorial through AppTest; the match logic directly."""
from __future__ import annotations

from engine import apply, new_game
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import Ruleset
from notepad.store import GameStore

from app import match_logic as ml

from .helpers import keys, no_exception, status, texts


def _gid(at):
    gid = at.query_params["game"]
    return gid[0] if isinstance(gid, list) else gid


def test_rebuild_gives_back_the_exact_state_with_the_deck_order():
    for seed in range(5):
        final = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed)
        for cut in (0, 7, len(final.events) // 2, len(final.events)):
            # play the same game again up to the cut, then rebuild from its record
            state = new_game(seed)
            fb, mb = RandomFugitive(seed), RandomMarshal(seed)
            from engine import fugitive_view, marshal_view

            while len(state.events) < cut and not state.is_over:
                bot = fb.choose(fugitive_view(state)) if state.current_player == "fugitive" else mb.choose(marshal_view(state))
                state = apply(state, bot)
            again = ml.rebuild(seed, Ruleset(), state.record())
            assert again == state and again.decks == state.decks


def test_solver_marshals_of_a_match_guess_the_likely_numbers_or_at_random():
    from engine.moves import Draw, PassTurn, PlaceHideout
    from engine import marshal_view

    state = new_game(3)
    state = apply(state, PlaceHideout(1))
    state = apply(state, PassTurn())
    state = apply(state, Draw(3))
    state = apply(state, Draw(3))
    view = marshal_view(state)
    strong = ml.marshal_bots()["solver_strong"]
    assert strong.make(1).choose(view).numbers <= {1, 2, 3}
    # the medium one guesses a random number half the time: over many seeds, both kinds
    medium = ml.marshal_bots()["solver_medium"]
    guesses = [medium.make(seed).choose(view).numbers for seed in range(40)]
    assert any(g <= {1, 2, 3} for g in guesses) and any(not g <= {1, 2, 3} for g in guesses)
    assert all(not g & view.hand for g in guesses)


def test_human_marshal_match_is_saved_and_resumes(make_app, db):
    at = make_app(page="match")
    no_exception(at)
    at.text_input(key="m_seed").input("11").run()
    at.button(key="m_start").click().run()
    no_exception(at)
    gid = _gid(at)
    # the Fugitive bot has played his opening; the Marshal draws
    assert "Marshal" in status(at)
    draw = [k for k in keys(at.segmented_control) if k.startswith("mc_draw")][0]
    at.segmented_control(key=draw).set_value(1).run()
    no_exception(at)
    stored = GameStore(db).open(gid)
    assert stored.info.kind == "match" and stored.metadata["seed"] == 11
    assert sum(1 for e in stored.record.events if e.type == "marshal_draw") == 1
    assert 'data-testid="fg-heatmap"' in texts(at)  # the assistant panel is on
    again = make_app(page="match", game=gid)
    no_exception(again)
    assert [k for k in keys(again.segmented_control) if k.startswith("mc_draw")]


def test_hotseat_hides_the_cards_until_the_player_is_ready(make_app, db):
    at = make_app(page="match")
    at.segmented_control(key="m_mode").set_value("hotseat").run()
    at.button(key="m_start").click().run()
    no_exception(at)
    assert 'data-testid="fg-handover"' in texts(at)
    assert 'data-testid="fg-hand"' not in texts(at)
    ready = [k for k in keys(at.button) if k.startswith("m_ready")][0]
    at.button(key=ready).click().run()
    assert 'data-testid="fg-hand"' in texts(at) and "Fugitive" in texts(at)


def test_ai_vs_ai_then_learning(make_app, db):
    at = make_app(page="match")
    at.segmented_control(key="m_mode").set_value("ai_ai").run()
    at.selectbox(key="m_fbot").set_value("level:casual").run()  # the quick levels: a whole game
    at.selectbox(key="m_mbot").set_value("level:casual").run()
    at.text_input(key="m_seed").input("5").run()
    at.button(key="m_start").click().run()
    step = [k for k in keys(at.button) if k.startswith("m_step")][0]
    at.button(key=step).click().run()
    no_exception(at)
    gid = _gid(at)
    assert len(GameStore(db).open(gid).record.events) == 1
    at.button(key="m_to_end").click().run()
    no_exception(at)
    assert "won" in status(at)
    at.button(key="m_learn").click().run()
    no_exception(at)
    assert at.query_params["page"] in ("learning", ["learning"])
    page = texts(at)
    assert "The Marshal guessed" in page and "You guessed" not in page  # a bot guessed


def test_learning_grades_a_guess(make_app, db):
    from engine.record import Guess, MarshalDraw, Place, Record

    rec = Record((Place(0), MarshalDraw(20), MarshalDraw(21), Guess((7,), False)))
    info = GameStore(db).create(rec)
    at = make_app(page="learning", game=info.id)
    no_exception(at)
    page = texts(at)
    assert "You guessed 7 at 0%" in page and "was 33%" in page
    at.button(key="l_prev").click().run()
    no_exception(at)


def test_tutorial_checks_answers(make_app, db):
    at = make_app(page="tutorial")
    no_exception(at)
    at.pills(key="tut_a_0").set_value(2).run()
    at.button(key="tut_check_0").click().run()
    assert at.warning
    at.pills(key="tut_a_0").set_value(1).run()
    at.button(key="tut_check_0").click().run()
    assert at.success
    at.button(key="tut_next").click().run()
    at.pills(key="tut_a_1").set_value([5, 6, 7]).run()
    at.button(key="tut_check_1").click().run()
    assert at.success


def test_a_seed_that_is_not_a_whole_number_is_refused_with_a_message(make_app, db):
    at = make_app(page="match")
    for text in ("²", "9" * 5000, "-5", "abc", "1e3", "1000000000000"):
        at.text_input(key="m_seed").input(text).run()
        at.button(key="m_start").click().run()
        no_exception(at)
        assert any("whole number from 0 to 999,999,999,999" in e.value for e in at.error), text
        assert GameStore(db).list() == []
    at.text_input(key="m_seed").input(" 42 ").run()
    at.button(key="m_start").click().run()
    no_exception(at)
    assert GameStore(db).open(_gid(at)).metadata["seed"] == 42


def test_a_match_whose_record_does_not_follow_from_its_seed_is_not_resumed(make_app, db):
    from engine.bots import RandomMarshal

    store = GameStore(db)
    other = play_game(RandomFugitive(2), RandomMarshal(2), seed=2)  # another seed's moves
    info = store.create(other.record().truncated(6), kind="match", metadata={"seed": 3, "mode": "ai_ai"})
    at = make_app(page="match", game=info.id)
    no_exception(at)
    assert any("cannot go on" in e.value for e in at.error)
    assert store.open(info.id).record == other.record().truncated(6)


def test_a_match_moved_on_in_another_window_is_not_overwritten(make_app, db):
    a = make_app(page="match")
    a.text_input(key="m_seed").input("11").run()
    a.button(key="m_start").click().run()
    gid = _gid(a)
    b = make_app(page="match", game=gid)
    no_exception(b)
    draw = [k for k in keys(a.segmented_control) if k.startswith("mc_draw")][0]
    a.segmented_control(key=draw).set_value(1).run()
    no_exception(a)
    saved = GameStore(db).open(gid).record
    b.segmented_control(key=draw).set_value(2).run()
    no_exception(b)
    assert GameStore(db).open(gid).record == saved
    assert any("changed elsewhere" in e.value for e in b.error), [e.value for e in b.error]


def test_two_humans_get_a_secret_deal_and_a_typed_seed_is_flagged(make_app, db):
    at = make_app(page="match")
    at.segmented_control(key="m_mode").set_value("hotseat").run()
    assert "m_seed" not in keys(at.text_input)  # no seed to type: one player could replay it
    at.button(key="m_start").click().run()
    no_exception(at)
    seed = GameStore(db).open(_gid(at)).metadata["seed"]
    assert isinstance(seed, int) and str(seed) not in texts(at)
    other = make_app(page="match")
    assert "Leave it empty for a secret deal" in texts(other)  # human vs bot: told
    other.segmented_control(key="m_mode").set_value("ai_ai").run()
    assert "Leave it empty for a secret deal" not in texts(other)


def test_secret_seeds_have_64_random_bits(monkeypatch):
    from app import match

    drawn = []
    monkeypatch.setattr(match.secrets, "randbits", lambda k: drawn.append(k) or 12345)
    assert match._seed("  ") == 12345 and drawn == [64]


def _fugitive_match(make_app, db, mode: str, seed: str = ""):
    at = make_app(page="match")
    at.segmented_control(key="m_mode").set_value(mode).run()
    if seed:
        at.text_input(key="m_seed").input(seed).run()
    at.button(key="m_start").click().run()
    no_exception(at)
    return at, _gid(at)


def test_learning_waits_for_the_end_of_a_match_a_human_fugitive_plays(make_app, db):
    from engine.bots import RandomMarshal as RM

    for mode in ("human_fugitive", "hotseat"):
        at, gid = _fugitive_match(make_app, db, mode)
        learning = make_app(page="learning", game=gid)
        no_exception(learning)
        assert "still on" in texts(learning) and 'data-testid="fg-heatmap"' not in texts(learning)
    # once it is over, Learning shows it
    store = GameStore(db)
    meta = store.open(gid).metadata
    final = play_game(RandomFugitive(meta["seed"] + 1), RM(meta["seed"] + 2), seed=meta["seed"])
    store.save(gid, final.record())
    learning = make_app(page="learning", game=gid)
    no_exception(learning)
    assert "still on" not in texts(learning) and 'data-testid="fg-heatmap"' in texts(learning)


def test_learning_shows_a_human_marshals_match_while_it_is_on(make_app, db):
    at, gid = _fugitive_match(make_app, db, "human_marshal")
    learning = make_app(page="learning", game=gid)
    no_exception(learning)
    assert "still on" not in texts(learning)


def test_the_human_fugitive_is_told_what_to_do(make_app, db):
    at, _ = _fugitive_match(make_app, db, "human_fugitive")
    assert "Your turn · Fugitive · place 1 or 2 hideouts" in status(at)


def test_a_placement_out_of_reach_cannot_be_tapped_and_the_opening_pass_says_what_it_does(make_app, db):
    at, _ = _fugitive_match(make_app, db, "human_fugitive", seed="11")
    hideout = next(w for w in at.pills if w.key.startswith("mc_h_"))
    far = max(hideout.options)  # beyond 3 of 0 without sprint cards
    assert int(far) > 3
    at.pills(key=hideout.key).set_value(far).run()
    place = next(w for w in at.button if w.key.startswith("mc_place_"))
    assert place.disabled and f"{far} is out of reach" in texts(at)
    at.pills(key=hideout.key).set_value(min(hideout.options)).run()
    place = next(w for w in at.button if w.key.startswith("mc_place_"))
    assert not place.disabled
    place.click().run()
    no_exception(at)
    passing = next(w for w in at.button if w.key.startswith("mc_pass_"))
    assert passing.label == "End my first turn with one hideout"


def test_each_player_is_told_what_happened_since_their_last_move(make_app, db):
    at = make_app(page="match")
    at.text_input(key="m_seed").input("11").run()
    at.button(key="m_start").click().run()  # human Marshal: the bot has placed
    assert "Since your last move:" in texts(at) and "Fugitive: hideout" in texts(at)
    for _ in range(2):
        draw = [k for k in keys(at.segmented_control) if k.startswith("mc_draw")][0]
        at.segmented_control(key=draw).set_value(1).run()
    guess = next(w for w in at.pills if w.key.startswith("mc_g_"))
    at.pills(key=guess.key).set_value([41]).run()
    at.button(key=next(k for k in keys(at.button) if k.startswith("mc_guess_"))).click().run()
    no_exception(at)
    page = texts(at)
    # her guess's result, then the Fugitive's moves after it
    assert "Marshal: guess 41 - miss" in page.split("Since your last move:")[1]


def test_the_hand_over_screen_says_the_last_move_and_nothing_private(make_app, db):
    at = make_app(page="match")
    at.segmented_control(key="m_mode").set_value("hotseat").run()
    at.button(key="m_start").click().run()

    def ready(at):
        at.button(key=next(k for k in keys(at.button) if k.startswith("m_ready"))).click().run()

    ready(at)  # the Fugitive: one hideout, then his first turn ends
    hideout = next(w for w in at.pills if w.key.startswith("mc_h_"))
    at.pills(key=hideout.key).set_value(min(hideout.options)).run()
    at.button(key=next(k for k in keys(at.button) if k.startswith("mc_place_"))).click().run()
    at.button(key=next(k for k in keys(at.button) if k.startswith("mc_pass_"))).click().run()
    assert "Last move:" in texts(at)
    ready(at)  # the Marshal: two draws (private cards), then a guess
    for _ in range(2):
        draw = next(k for k in keys(at.segmented_control) if k.startswith("mc_draw"))
        at.segmented_control(key=draw).set_value(1).run()
    drawn = GameStore(db).open(_gid(at)).record.events[-1].card
    guess = next(w for w in at.pills if w.key.startswith("mc_g_"))
    at.pills(key=guess.key).set_value([41]).run()
    at.button(key=next(k for k in keys(at.button) if k.startswith("mc_guess_"))).click().run()
    no_exception(at)
    page = texts(at)
    # handed to the Fugitive: her guess's result is public, her drawn cards are not
    assert 'data-testid="fg-handover"' in page and "Marshal: guess 41 - miss" in page
    assert f"drew {drawn}" not in page


def test_the_match_page_says_why_it_does_not_open_a_game(make_app, db):
    from engine.record import Record

    gid = GameStore(db).create(Record()).id  # an assistant game
    at = make_app(page="match", game=gid)
    no_exception(at)
    assert "open it from the Assistant" in at.error[0].value


def test_a_match_with_damaged_metadata_is_a_message(make_app, db):
    from engine import new_game

    store = GameStore(db)
    for meta in ({"seed": 5}, {"seed": "5", "mode": "ai_ai"}, {"seed": 5, "mode": "chess"}):
        info = store.create(new_game(5).record(), kind="match", metadata=meta)
        at = make_app(page="match", game=info.id)
        no_exception(at)
        assert any("cannot go on" in e.value for e in at.error), meta


def test_the_levels_of_the_ai_are_named_in_both_languages_and_old_names_still_resolve():
    from advisor.search import SearchFugitive
    from app.i18n import EN, KO

    for levels in (ml.fugitive_levels(), ml.marshal_levels()):
        assert [k.split(":")[1] for k in levels] == list(ml.LEVELS)
        for spec in levels.values():
            assert spec.key in EN and spec.key in KO
    expert = ml.fugitive_levels()["level:expert"].make(3)
    assert isinstance(expert, SearchFugitive) and expert.time_budget <= 1.0
    # matches saved before the levels name their bots by the old keys
    assert {"random", "advisor:adversarial", "level:expert"} <= set(ml.fugitive_bots())
    assert {"random", "solver_strong", "advisor:lookahead", "level:expert"} <= set(ml.marshal_bots())
