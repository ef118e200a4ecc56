// A turn not missed (app/online.py, _turn_signal): the tab's title says whose turn it is,
// and when the turn comes to her (this tab showed the other's turn before) the phone
// vibrates where the browser allows it. FG.key: this match's key in sessionStorage;
// FG.mine: whether it is her turn; FG.title: the tab's title.
const key = FG.key, mine = FG.mine;
document.title = FG.title;
const was = sessionStorage.getItem(key);
if (mine && was === '0' && navigator.vibrate) { try { navigator.vibrate([200, 100, 200]); } catch (e) {} }
sessionStorage.setItem(key, mine ? '1' : '0');
