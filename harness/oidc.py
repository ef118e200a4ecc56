"""A real OpenID Connect provider on this machine for the accounts' tests
(``oidc-provider-mock``: a Flask server that signs real ID tokens; any client id and
secret; a person signs in by typing her subject on its form), and the Streamlit
secrets that point the app at it (``[auth]``: what ``st.login`` reads)."""
from __future__ import annotations

import contextlib
import pathlib
import secrets
from typing import Any, Iterator, Sequence

#: the form of the provider's authorization page
SUBJECT_FIELD = "sub"
AUTHORIZE_BUTTON = "Authorize"


def missing() -> str | None:
    """Why the accounts' tests cannot run here (None when they can)."""
    try:
        import authlib  # noqa: F401
        import oidc_provider_mock  # noqa: F401
    except ImportError as exc:
        return f"ACCOUNT TESTS SKIPPED: {exc.name} is missing (pip install -e '.[browser]')"
    return None


@contextlib.contextmanager
def provider() -> Iterator[str]:
    """The provider on a free loopback port, for the life of the block: its issuer URL."""
    import oidc_provider_mock

    with oidc_provider_mock.run_server_in_thread() as server:
        yield f"http://localhost:{server.server_port}"


def secrets_file(folder: pathlib.Path, issuer: str) -> pathlib.Path:
    """A ``secrets.toml`` with the ``[auth]`` section for ``issuer``; the app's port is
    filled in by Streamlit (``{port}`` in the redirect URI), so one file serves any
    server started with it (two app servers must share the cookie secret)."""
    path = folder / "secrets.toml"
    path.write_text(
        "[auth]\n"
        'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(16)}"\n'
        'client_id = "fugitive-tests"\n'
        'client_secret = "fugitive-tests-secret"\n'
        f'server_metadata_url = "{issuer}/.well-known/openid-configuration"\n',
        encoding="utf-8")
    return path


def authorize(page, subject: str) -> None:
    """On a page that offers "Sign in": tap it, and sign in as ``subject`` on the
    provider's form (it sends the browser back to the app)."""
    page.get_by_role("button", name="Sign in").first.click()
    _provider_form(page, subject)


def _provider_form(page, subject: str) -> None:
    """On the provider's authorization page (once it is there): sign in as ``subject``."""
    page.wait_for_selector(f'input[name="{SUBJECT_FIELD}"]', timeout=30_000)
    page.fill(f'input[name="{SUBJECT_FIELD}"]', subject)
    page.get_by_role("button", name=AUTHORIZE_BUTTON, exact=True).click()


def sign_in(page, url: str, subject: str) -> None:
    """Sign ``page``'s browser in as ``subject``: the app's "Sign in", the provider's
    form, and back to the app's first page, signed in."""
    sign_in_all([(page, url, subject)])


def sign_in_all(people: Sequence[tuple[Any, str, str]]) -> None:
    """Sign several browsers in, each ``(page, url, subject)`` as :func:`sign_in` does,
    side by side: each step is taken on every page before the next is waited for, so
    that their page loads and the provider's answers overlap, as when several people
    sign in at once (a sign-in is two loads of the app and one of the provider's form,
    mostly waiting)."""
    from . import browser

    for page, url, _ in people:
        page.goto(url + "/?page=match", wait_until="commit")
    for page, _, _ in people:
        page.get_by_role("button", name="Sign in").first.click()
    for page, _, subject in people:
        _provider_form(page, subject)
    for page, _, _ in people:
        page.wait_for_selector("text=Signed in as", timeout=30_000)
        browser.wait_idle(page)


def end_session(page) -> None:
    """After "Sign out": the provider asks whether to end its session too (OpenID
    Connect's RP-initiated logout); yes, and back to the app."""
    page.wait_for_selector('button:has-text("End session"), button:has-text("Sign in")', timeout=30_000)
    if page.locator('button:has-text("End session")').count():
        page.get_by_role("button", name="End session").click()
