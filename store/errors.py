"""The store's refusals: one :class:`StoreError` class, one code per kind of refusal.

A module of its own, at the bottom of the package, so that every part of the store
(the database, the schema, the records, seats, owners and the lobby) raises the same
coded errors; :mod:`store` hands out both names.
"""
from __future__ import annotations

from engine.errors import CodedError

#: Every kind of refusal: code -> English template (placeholders: ``StoreError.params``).
STORE_MESSAGES: dict[str, str] = {
    # an import or a save: ``error`` is the RecordFormatError or RecordRuleError itself
    "bad_record": "not a valid game record: {error}",
    "breaks_rule": "the record breaks a rule: {error}",
    # the database
    "newer_schema": "{path} has schema version {version}; this program knows up to {known}",
    "foreign_database": "{path} is not a Fugitive database: it holds other tables ({tables})",
    "no_database": "no Fugitive database at {where}",
    "bad_database_url": "{url} is neither a SQLite file nor a postgresql:// URL (it starts with {scheme!r})",
    # the database cannot be reached or read (server down, not a database file, disk
    # full, locked too long): ``reason`` is the driver's reason, on one line
    "database_error": "database {where}: {reason}",
    # requests
    "no_game": "no game with id {game_id!r}",
    "changed_elsewhere": "game {game_id!r} was changed elsewhere (another window or device) since it was opened here; nothing was saved: it now shows the stored game",
    "unreadable_game": "game {game_id!r} cannot be read: {error}",
    "bad_kind": "kind must be one of {kinds}, not {kind!r}",
    "empty_title": "a title must not be empty",
    "long_title": "a title must be at most {limit} characters",
    "metadata_not_object": "metadata must be a JSON object",
    "metadata_not_json": "metadata must be plain JSON: {detail}",
    # matches played by links (store.access)
    "bad_role": "the role must be one of {roles}, not {role!r}",
    "bad_owner_key": "an owner key must be {low} to {high} URL-safe characters (store.access.new_owner_key makes one)",
    "not_online": "game {game_id!r} is not a match played by links",
    "already_rematched": "game {game_id!r} already has a rematch: {rematch_id!r}",
    # a seat belongs to one browser (issue 30)
    "seat_taken": "the {role} seat of game {game_id!r} is taken",
    "not_your_seat": "this browser does not hold the {role} seat of game {game_id!r}",
    # a seat belongs to a person (issue 35)
    "not_maker": "only the maker of game {game_id!r} can call it off",
    "invited_moved": "the {role} of game {game_id!r} has moved: the match can no longer be called off",
    "match_over": "game {game_id!r} is over: it can no longer be called off",
    "bad_recovery_code": "no such recovery code (mistyped, used, or replaced by a newer one)",
    "bad_account": "an account needs the issuer and the subject of its sign-in",
    "account_no_code": "an account needs no recovery code: sign in on the other device",
    "account_to_account": "games never move from one account to another",
    "not_owner": "only the browser that made game {game_id!r} can share it",
    "has_seats": "game {game_id!r} is played by links: its watchers' link is reissued, not shared",
    # the lobby and ratings (issue 38)
    "lobby_account": "the lobby is for signed-in players: sign in first",
    "bad_choice": "the {what} must be one of {allowed}, not {value!r}",
    "too_many_challenges": "at most {limit} open challenges at once: cancel one first",
    "no_challenge": "that challenge is no longer open (joined or cancelled a moment ago)",
    "own_challenge": "that is your own challenge: a rated match needs two players",
    "not_rated": "game {game_id!r} is not a match of the lobby",
    "already_rated": "game {game_id!r} has already ended and been rated",
    "too_many_messages": "at most {limit} quick messages per player in a match",
    "bad_outcome": "a rated match ends won, resigned or claimed by the marshal or the fugitive, not {how!r} by {winner!r}",
}


class StoreError(CodedError, ValueError):
    """A storage request that cannot be done (unknown id, bad import, bad title).

    ``code`` names the refusal (a key of :data:`STORE_MESSAGES`) and ``params`` holds
    the values its template mentions; the message is the template formatted with
    them, so the app can say it in another language from the same code. A refused
    record keeps the reader's or the validator's error in ``params["error"]`` (with
    its own code, index and params): the store's message includes it, and the app
    says both parts. Raise one with ``StoreError.of(code, **params)``.
    """

    def __init__(self, message: str, code: str | None = None, params: dict[str, object] | None = None):
        self._take_code(message, code, params)
        super().__init__(message)

    def __reduce__(self) -> tuple[type["StoreError"], tuple[str, str | None, dict[str, object]]]:
        return (type(self), (str(self), self.code, self.params))

    @classmethod
    def of(cls, code: str, /, **params: object) -> "StoreError":
        """The error for refusal ``code``: ``raise StoreError.of(code, ...)``."""
        if code not in STORE_MESSAGES:
            raise KeyError(f"unknown store code {code!r}")
        return cls(STORE_MESSAGES[code].format(**params), code, params)
