"""The two views: contents on a known position, and their move lists."""
from __future__ import annotations

from engine import Draw, MakeGuess, PassTurn, PlaceHideout, fugitive_view, legal_moves, marshal_view, public_view
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.state import MarshalDrewFrom, Phase

from .helpers import play, start


def midgame():
    s = start(d1=(4, 5, 6), d2=(15, 16))
    return play(s, PlaceHideout(2), PlaceHideout(4, {1}), Draw(1), Draw(3), MakeGuess({2}), Draw(2))


def test_marshal_view_of_a_known_position():
    s = midgame()
    v = marshal_view(s)
    assert v.phase == Phase.FUGITIVE_PLACE and not v.my_turn
    assert v.hand == {7, 29}
    assert v.row == ((0, 0, ()), (2, 0, ()), (None, 1, None))  # 2 revealed, 4 face down over 1 card
    assert v.fugitive_hand_size == len(s.fugitive_hand) == 7
    assert [e.type for e in v.events] == ["place", "place", "marshal_draw", "marshal_draw", "guess", "fugitive_draw"]
    assert v.events[-1].card is None and v.events[1].hideout is None
    assert v.legal_moves() == []
    assert all(getattr(e, "sprint_cards", None) is None for e in v.events if e.type == "place")


def test_fugitive_view_of_a_known_position():
    s = midgame()
    v = fugitive_view(s)
    assert v.my_turn and v.hand == s.fugitive_hand and v.row == s.row
    assert v.marshal_hand_size == 2 and v.marshal_draw_decks == (1, 3)
    assert not any(isinstance(getattr(e, "card", None), int) and e.type == "marshal_draw" for e in v.events)
    assert [e for e in v.events if isinstance(e, MarshalDrewFrom)] == [MarshalDrewFrom(1), MarshalDrewFrom(3)]
    assert v.guesses[0].numbers == (2,) and v.guesses[0].hit
    assert 29 not in v.hand and 7 not in v.hand and v.marshal_hand_size == 2
    assert set(v.legal_moves()) == set(legal_moves(s))
    assert PassTurn() in v.legal_moves()
    assert v.can_place(5) and not v.can_place(4) and v.placement_error(15) is not None


def test_public_view_of_a_known_position_holds_no_card_of_a_hand():
    s = midgame()
    v = public_view(s)
    assert v.phase == Phase.FUGITIVE_PLACE and v.current_player == "fugitive"
    assert v.row == marshal_view(s).row  # face-down hideouts as their sprint counts only
    assert (v.marshal_hand_size, v.fugitive_hand_size, v.deck_sizes) == (2, 7, marshal_view(s).deck_sizes)
    # her draws as their decks (what he may see), his draw as its deck (what she may see)
    assert [e.type for e in v.events] == ["place", "place", "marshal_draw", "marshal_draw", "guess", "fugitive_draw"]
    assert v.events[2:4] == (MarshalDrewFrom(1), MarshalDrewFrom(3))
    assert v.events[-1].card is None and v.events[1].hideout is None and v.events[1].sprint_cards is None
    assert v.events[4] == s.events[4]  # a guess and what it revealed are public
    assert not hasattr(v, "hand")


def test_the_public_view_is_what_both_players_see_through_whole_games():
    """At every moment of 30 games: each public event is the Marshal's (no card of
    his) and the Fugitive's (no card of hers) at once, except her draw, which is his."""
    for seed in range(30):
        from engine import replay

        rec = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed).record()
        st = replay(rec)
        v = public_view(st)
        assert len(v.events) == len(st.events) and v.row == st.public_row and v.winner == st.winner
        for p, m, f in zip(v.events, marshal_view(st).events, fugitive_view(st).events):
            assert p == f if isinstance(f, MarshalDrewFrom) else p == m
            assert getattr(p, "card", None) is None and getattr(p, "sprint_cards", None) is None or p.type in (
                "guess", "manhunt_guess")


def test_view_move_lists_agree_with_the_engine_through_games():
    for seed in range(40):
        f, m = RandomFugitive(seed), RandomMarshal(seed)
        state = play_game(f, m, seed=seed)  # final
        from engine import replay

        rec = state.record()
        for cut in range(0, len(rec.events), 3):
            st = replay(rec.truncated(cut))
            if len(st.fugitive_hand) > 10:
                continue
            if st.current_player == "fugitive":
                assert set(fugitive_view(st).legal_moves()) == set(legal_moves(st))
            elif st.current_player == "marshal":
                assert marshal_view(st).legal_moves() == legal_moves(st)


def test_public_api_names():
    import engine

    for name in ("new_game", "apply", "legal_moves", "legal_placements", "legal_hideouts", "can_place",
                 "replay", "marshal_view", "fugitive_view", "MarshalView", "FugitiveView"):
        assert name in engine.__all__ and callable(getattr(engine, name))
    assert engine.new_game(seed=1) == engine.new_game(seed=1)


def test_a_face_up_sprint_card_is_not_guessable_anywhere():
    """docs/rules.md: a number already face up cannot be guessed; a revealed sprint card lies
    face up beside its hideout, so its number is face up too (the engine, the Marshal's
    view and the random Marshal agree)."""
    from engine import HuntGuess, IllegalMove, MakeGuess, apply, guessable_numbers, marshal_view
    from engine.bots import RandomMarshal

    from .test_move_codes import sprint_4_face_up

    state = sprint_4_face_up()
    assert 4 not in guessable_numbers(state) and 6 in guessable_numbers(state)
    view = marshal_view(state)
    assert view.face_up_sprint_cards == frozenset({4})
    assert 4 not in view.guessable_numbers()
    assert all(m.numbers != frozenset({4}) for m in view.legal_moves())
    try:
        apply(state, MakeGuess({4}))
    except IllegalMove as exc:
        assert exc.code == "guess_face_up_sprint"
    else:
        raise AssertionError("a guess of a face-up sprint card was accepted")
    for seed in range(300):  # the random Marshal never tries one
        move = RandomMarshal(seed).choose(view)
        assert 4 not in (move.numbers if not isinstance(move, HuntGuess) else {move.number})
