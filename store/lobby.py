"""The lobby's requests (issue 38): open challenges, the matches made from them and
their ratings, and the quick messages of a match.

The lobby's rules and the values its pages read are :mod:`store.lobby_rules`; the
rating arithmetic is :mod:`store.ratings` (OpenSkill's). Signed-in players only
(``lobby_account`` for a browser). Every change the lobby shows raises one counter
(``lobby_clock``), whose row lock also puts the rated endings in one order (``seq``),
so that a replay of the results in that order gives every stored rating exactly.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, text

from engine.record import Record, Ruleset

from .access import SEATS, Principal, Role
from .errors import StoreError
from .lobby_rules import (
    MAX_MESSAGES, MAX_OPEN, PACES, QUICK_MESSAGES, WANTS, Challenge, LobbyMatch, Outcome, Pace, Said, Wants,
)
from .members import Who, add_member, digest, member_role
from .policy import lobby_grants
from .ratings import SIDES, Rating, Result, Side, initial, rate
from .records import GameInfo, check_record, clean_title, insert_game, metadata_json, new_game_id
from .tables import Tables, id_ok, now


class LobbyStore(Tables):
    """The store's part for the lobby: challenges posted, cancelled and joined (a match
    with both seats bound), lobby matches watched and listed, ratings, quick messages;
    and the rating of a match in the save that ends it (:meth:`_rate`)."""

    def lobby_version(self) -> int:
        """The lobby's counter: one more at every change the lobby shows (a challenge
        posted, joined or cancelled, a lobby match ended): one cheap read for its pages."""
        with self._read() as con:
            return int(con.execute(text("SELECT version FROM lobby_clock WHERE id = 1")).scalar_one())

    def post_challenge(self, who: Principal, wants: Wants | str, ruleset: Ruleset, pace: Pace | str) -> Challenge:
        """An open challenge by an account (``lobby_account`` for a browser): the role
        she wants, the rules and the pace; at most :data:`store.lobby_rules.MAX_OPEN` open at
        once (``too_many_challenges``)."""
        me = _account(who)
        if wants not in WANTS:
            raise StoreError.of("bad_choice", what="role", value=str(wants), allowed=", ".join(WANTS))
        if pace not in PACES:
            raise StoreError.of("bad_choice", what="pace", value=str(pace), allowed=", ".join(PACES))
        if not isinstance(ruleset, Ruleset) or ruleset.opening not in ("one-or-two", "two"):
            raise StoreError.of("bad_choice", what="opening", value=str(getattr(ruleset, "opening", ruleset)),
                                allowed="one-or-two, two")
        cid, at = new_game_id(), now()
        with self._write() as con:
            _tick(con)
            n = con.execute(text("SELECT COUNT(*) FROM challenges WHERE owner_hash = :o"), {"o": me.digest}).scalar_one()
            if int(n) >= MAX_OPEN:
                raise StoreError.of("too_many_challenges", limit=MAX_OPEN)
            _seen(con, me)
            con.execute(text("INSERT INTO challenges (id, owner_hash, wants, opening, pass_draw, pace, created) "
                             "VALUES (:id, :o, :w, :op, :pd, :pace, :now)"),
                        {"id": cid, "o": me.digest, "w": wants, "op": ruleset.opening, "pd": bool(ruleset.pass_draw),
                         "pace": pace, "now": at})
        return Challenge(cid, me.digest, me.name, wants, ruleset, pace, at)

    def cancel_challenge(self, challenge_id: str, who: Principal) -> None:
        """Her own open challenge withdrawn (``no_challenge``: joined or cancelled
        already, or not hers)."""
        me = _account(who)
        with self._write() as con:
            _tick(con)
            if not id_ok(challenge_id) or con.execute(
                    text("DELETE FROM challenges WHERE id = :id AND owner_hash = :o"),
                    {"id": challenge_id, "o": me.digest}).rowcount != 1:
                raise StoreError.of("no_challenge")

    def challenges(self) -> list[Challenge]:
        """The open challenges, oldest first."""
        with self._read() as con:
            rows = con.execute(text(
                "SELECT c.*, p.name FROM challenges c LEFT JOIN players p ON p.owner_hash = c.owner_hash "
                "ORDER BY c.created, c.id")).all()
        return [_challenge(r) for r in rows]

    def challenge(self, challenge_id: str) -> Challenge | None:
        if not id_ok(challenge_id):
            return None
        with self._read() as con:
            row = con.execute(text(
                "SELECT c.*, p.name FROM challenges c LEFT JOIN players p ON p.owner_hash = c.owner_hash "
                "WHERE c.id = :id"), {"id": challenge_id}).first()
        return _challenge(row) if row is not None else None

    def accept_challenge(self, challenge_id: str, who: Principal, record: Record, *, coin: Side, title: str,
                         metadata: dict[str, Any]) -> tuple[GameInfo, Side]:
        """She joins an open challenge: in one transaction the challenge goes and a
        match is made (``record``: its deal, under the challenge's rules) with both
        seats bound to the two accounts: the maker in the seat she wants (``coin`` for
        "either"), the joiner in the other. Refused: ``no_challenge`` (joined or
        cancelled a moment ago: the second of two joiners gets this), ``own_challenge``
        (a rated match is never between two seats of one account). Returns the match
        and the joiner's seat."""
        me = _account(who)
        check_record(record)
        meta = metadata_json(metadata)
        if coin not in SIDES:
            raise StoreError.of("bad_choice", what="side", value=str(coin), allowed=", ".join(SIDES))
        if not id_ok(challenge_id):
            raise StoreError.of("no_challenge")
        with self._write() as con:
            _tick(con)
            row = con.execute(text("SELECT * FROM challenges WHERE id = :id"), {"id": challenge_id}).first()
            if row is None:
                raise StoreError.of("no_challenge")
            if row.owner_hash == me.digest:
                raise StoreError.of("own_challenge")
            ch = _challenge(row)
            if record.ruleset != ch.ruleset:
                raise StoreError.of("bad_choice", what="rules", value=str(record.ruleset), allowed=str(ch.ruleset))
            _seen(con, me)
            con.execute(text("DELETE FROM challenges WHERE id = :id"), {"id": challenge_id})
            maker_side = ch.maker_side(coin)
            mine: Side = "fugitive" if maker_side == "marshal" else "marshal"
            info = insert_game(con, record, clean_title(title), "match", meta)
            add_member(con, info.id, ch.maker, Role(maker_side), made=True)
            add_member(con, info.id, me.digest, Role(mine), made=False)
            seats = {maker_side: ch.maker, mine: me.digest}
            con.execute(text("INSERT INTO lobby_matches (game_id, marshal_hash, fugitive_hash, pace, started) "
                             "VALUES (:id, :m, :f, :pace, :now)"),
                        {"id": info.id, "m": seats["marshal"], "f": seats["fugitive"], "pace": ch.pace,
                         "now": info.created})
        return info, mine

    def watch_lobby_match(self, game_id: str, who: Who) -> Role | None:
        """Someone in the lobby opens a live lobby match of others: she becomes its
        watcher (the public table only; :func:`store.policy.lobby_grants`); a member
        stays what she is; None: no such lobby match."""
        me = digest(who)
        with self._on_game(game_id) as con:
            if con is None or con.execute(text("SELECT 1 FROM lobby_matches WHERE game_id = :id"),
                                          {"id": game_id}).first() is None:
                return None
            mine = member_role(con, game_id, me)
            role = lobby_grants(mine)
            if mine is None and role is not None:
                add_member(con, game_id, me, role, made=False)
            return role

    def lobby_match(self, game_id: str) -> LobbyMatch | None:
        if not id_ok(game_id):
            return None
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.game_id = :id"), {"id": game_id}).all()
        return _lobby_match(rows[0]) if rows else None

    def live_lobby_matches(self) -> list[LobbyMatch]:
        """The lobby matches not yet ended, the newest first."""
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.finished IS NULL ORDER BY l.started DESC, l.game_id")).all()
        return [_lobby_match(r) for r in rows]

    def lobby_board(self, results: int) -> tuple[list[LobbyMatch], list[LobbyMatch]]:
        """The lobby matches to watch (:meth:`live_lobby_matches`) and the last ``results``
        rated (:meth:`recent_results`), read so that no match is in both. They are two
        reads, and a match may end between them (another player's save). A match's end and
        its rating (``finished`` and ``seq``) are written in one UPDATE and never undone,
        so the rated ones are read first: a match that ends after that read has left the
        live ones too, and is at worst in neither until the next read (the lobby's counter
        has moved). Read the other way, it could be in both."""
        recent = self.recent_results(results)
        return self.live_lobby_matches(), recent

    def lobby_history(self, who: Who) -> list[LobbyMatch]:
        """Her lobby matches, live and finished, in the order they began."""
        me = digest(who)
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.marshal_hash = :me OR l.fugitive_hash = :me "
                                    "ORDER BY l.started, l.game_id"), {"me": me}).all()
        return [_lobby_match(r) for r in rows]

    def recent_results(self, limit: int = 10) -> list[LobbyMatch]:
        """The last lobby matches rated, the newest first."""
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.seq IS NOT NULL ORDER BY l.seq DESC LIMIT :n"),
                               {"n": int(limit)}).all()
        return [_lobby_match(r) for r in rows]

    def ratings_of(self, who: Who) -> dict[Side, Rating]:
        """Her two ratings (the library's starting one where she has played no rated
        match in that role)."""
        return self.ratings_of_hash(digest(who))

    def ratings_of_hash(self, me: str) -> dict[Side, Rating]:
        """The two ratings of the principal of hash ``me`` (a challenge's maker)."""
        with self._read() as con:
            rows = con.execute(text("SELECT role, mu, sigma, games FROM ratings WHERE owner_hash = :me"),
                               {"me": me}).all()
        got: dict[Side, Rating] = {"marshal": initial(), "fugitive": initial()}
        for r in rows:
            got[r.role] = Rating(float(r.mu), float(r.sigma), int(r.games))
        return got

    def all_ratings(self) -> dict[tuple[str, Side], Rating]:
        with self._read() as con:
            rows = con.execute(text("SELECT owner_hash, role, mu, sigma, games FROM ratings")).all()
        return {(r.owner_hash, r.role): Rating(float(r.mu), float(r.sigma), int(r.games)) for r in rows}

    def results(self) -> list[Result]:
        """Every rated result, in the order it was rated (what a replay needs)."""
        with self._read() as con:
            rows = con.execute(text("SELECT seq, marshal_hash, fugitive_hash, winner FROM lobby_matches "
                                    "WHERE seq IS NOT NULL ORDER BY seq")).all()
        return [Result(int(r.seq), r.marshal_hash, r.fugitive_hash, r.winner) for r in rows]

    def say(self, game_id: str, who: Who, said: str) -> Said:
        """A quick message from a seat of a match (``not_your_seat`` for anyone else;
        ``bad_choice`` for anything but :data:`store.lobby_rules.QUICK_MESSAGES`; at most
        :data:`store.lobby_rules.MAX_MESSAGES` per seat: ``too_many_messages``). It does not
        move the match's version: a message never makes the other player's move stale."""
        if said not in QUICK_MESSAGES:
            raise StoreError.of("bad_choice", what="message", value=str(said)[:40], allowed=", ".join(QUICK_MESSAGES))
        me = digest(who)
        with self._on_game(game_id) as con:
            if con is None:
                raise StoreError.of("no_game", game_id=game_id)
            role = member_role(con, game_id, me)
            if role is None or role not in SEATS:
                raise StoreError.of("not_your_seat", game_id=game_id, role="seat")
            rows = con.execute(text("SELECT role FROM match_messages WHERE game_id = :id"), {"id": game_id}).all()
            if sum(r.role == role.value for r in rows) >= MAX_MESSAGES:
                raise StoreError.of("too_many_messages", limit=MAX_MESSAGES)
            n = len(rows) + 1
            con.execute(text("INSERT INTO match_messages (game_id, n, role, said, at) VALUES (:id, :n, :r, :s, :now)"),
                        {"id": game_id, "n": n, "r": role.value, "s": said, "now": now()})
        return Said(n, role.value, said)

    def messages(self, game_id: str) -> list[Said]:
        """A match's quick messages, in order."""
        if not id_ok(game_id):
            return []
        with self._read() as con:
            rows = con.execute(text("SELECT n, role, said FROM match_messages WHERE game_id = :id ORDER BY n"),
                               {"id": game_id}).all()
        return [Said(int(r.n), r.role, r.said) for r in rows]

    def pulse(self, game_id: str) -> tuple[int, int]:
        """A match's version and its number of quick messages, in one cheap query (what a
        match's page compares each half second)."""
        if id_ok(game_id):
            with self._read() as con:
                row = con.execute(text("SELECT version, (SELECT COUNT(*) FROM match_messages m "
                                       "WHERE m.game_id = games.id) AS said FROM games WHERE id = :id"),
                                  {"id": game_id}).first()
            if row is not None:
                return int(row.version), int(row.said)
        raise StoreError.of("no_game", game_id=game_id)

    def _rate(self, con: Connection, game_id: str, outcome: Outcome) -> None:
        """In the ending save's transaction: the lobby's clock first (its row lock puts
        every rating in one order: ``seq``), then the match's result and both ratings."""
        seq = _tick(con)
        row = con.execute(text("SELECT marshal_hash, fugitive_hash, finished FROM lobby_matches WHERE game_id = :id"
                               + self._db.for_update), {"id": game_id}).first()
        if row is None:
            raise StoreError.of("not_rated", game_id=game_id)
        if row.finished is not None:
            raise StoreError.of("already_rated", game_id=game_id)
        before = {side: _rating(con, owner, side)
                  for side, owner in (("marshal", row.marshal_hash), ("fugitive", row.fugitive_hash))}
        m, f = rate(before["marshal"], before["fugitive"], outcome.winner)
        for side, owner, r in (("marshal", row.marshal_hash, m), ("fugitive", row.fugitive_hash, f)):
            args = {"o": owner, "role": side, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            if con.execute(text("UPDATE ratings SET mu = :mu, sigma = :sigma, games = :games "
                                "WHERE owner_hash = :o AND role = :role"), args).rowcount != 1:
                con.execute(text("INSERT INTO ratings (owner_hash, role, mu, sigma, games) "
                                 "VALUES (:o, :role, :mu, :sigma, :games)"), args)
        con.execute(text("UPDATE lobby_matches SET finished = :now, winner = :w, how = :how, seq = :seq, "
                         "marshal_mu = :mm, marshal_sigma = :ms, fugitive_mu = :fm, fugitive_sigma = :fs "
                         "WHERE game_id = :id"),
                    {"now": now(), "w": outcome.winner, "how": outcome.how, "seq": seq, "mm": m.mu, "ms": m.sigma,
                     "fm": f.mu, "fs": f.sigma, "id": game_id})


# --------------------------------------------------------------------------- rows
_LOBBY_SQL = ("SELECT l.*, pm.name AS marshal_name, pf.name AS fugitive_name FROM lobby_matches l "
              "LEFT JOIN players pm ON pm.owner_hash = l.marshal_hash "
              "LEFT JOIN players pf ON pf.owner_hash = l.fugitive_hash")


def _account(who: Principal) -> Principal:
    """The lobby is for accounts: a browser could be anyone's, and is not rated."""
    if not isinstance(who, Principal) or who.kind != "account":
        raise StoreError.of("lobby_account")
    return who


def _tick(con: Connection) -> int:
    """The lobby's clock one more (its row stays locked to the end of the transaction);
    its new value."""
    con.execute(text("UPDATE lobby_clock SET version = version + 1 WHERE id = 1"))
    return int(con.execute(text("SELECT version FROM lobby_clock WHERE id = 1")).scalar_one())


def _seen(con: Connection, who: Principal) -> None:
    """Her name as the lobby shows it (the latest her sign-in gave)."""
    name = " ".join((who.name or "?").split())[:60] or "?"
    con.execute(text("INSERT INTO players (owner_hash, name, seen) VALUES (:o, :n, :now) "
                     "ON CONFLICT (owner_hash) DO UPDATE SET name = :n, seen = :now"),
                {"o": who.digest, "n": name, "now": now()})


def _rating(con: Connection, owner: str, side: str) -> Rating:
    row = con.execute(text("SELECT mu, sigma, games FROM ratings WHERE owner_hash = :o AND role = :r"),
                      {"o": owner, "r": side}).first()
    return Rating(float(row.mu), float(row.sigma), int(row.games)) if row is not None else initial()


def _challenge(row: Any) -> Challenge:
    name = getattr(row, "name", None) or ""
    return Challenge(row.id, row.owner_hash, name, row.wants, Ruleset(row.opening, bool(row.pass_draw)), row.pace,
                     row.created)


def _lobby_match(row: Any) -> LobbyMatch:
    def after(mu: Any, sigma: Any) -> Rating | None:
        return Rating(float(mu), float(sigma)) if mu is not None and sigma is not None else None

    return LobbyMatch(row.game_id, row.marshal_hash, row.fugitive_hash, row.marshal_name or "?",
                      row.fugitive_name or "?", row.pace, row.started, row.finished, row.winner, row.how,
                      int(row.seq) if row.seq is not None else None, after(row.marshal_mu, row.marshal_sigma),
                      after(row.fugitive_mu, row.fugitive_sigma))

