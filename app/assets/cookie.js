// One cookie of this browser written (app/identity.py, _set_cookie: the owner key, the
// language, the game link kept over a sign-in, and that link's removal; a cookie is read
// when a session starts, so the page writes it). FG.name; FG.value, URI-encoded (a link's
// "&" and "=" stay in it; an owner key or a language is left as it is); FG.max_age in
// seconds (0 removes it); FG.attributes: what follows the path ("; SameSite=Lax; Secure").
document.cookie = FG.name + '=' + encodeURIComponent(FG.value) + '; max-age=' + FG.max_age + '; path=/' + FG.attributes;
