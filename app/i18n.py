"""English and Korean strings of the app.

Korean terms follow the Korean rulebook (shared/rulebooks/fugitive-rulebook-ko.md):
도망자 (Fugitive), 수사관 (Marshal), 은신처 (hideout), 도약 카드 (sprint card),
수사 시도 (guess), 마지막 추적 (Manhunt), 덱 (deck), 패스 (pass), 탈출 (escape).

``t(key, **kw)`` formats the string of the current language (falling back to
English, then to the key itself, so a missing translation never breaks a page).
"""
from __future__ import annotations

LANGS = {"en": "English", "ko": "한국어"}
DEFAULT = "en"

EN: dict[str, str] = {
    "app_title": "Fugitive",
    "nav_assistant": "Assistant",
    "nav_match": "Match",
    "nav_learning": "Learning",
    "nav_tutorial": "Rules",
    # assistant: game list
    "assistant_intro": "Enter a real game as it happens; after every entry you see where the Fugitive can be.",
    "new_game": "New game",
    "title": "Title",
    "opening_rule": "Opening",
    "opening_one_or_two": "1 or 2 hideouts (rulebook)",
    "opening_two": "exactly 2 hideouts",
    "pass_draw_rule": "Extra draw after a pass (2nd edition)",
    "start": "Start",
    "saved_games": "Saved games",
    "show_all_games": "Show all {n} games",
    "list_over": "over: {winner}",
    "list_manhunt": "Manhunt",
    "list_fugitive": "his turn",
    "list_marshal": "your turn",
    "list_fugitive_name": "the Fugitive won",
    "list_marshal_name": "you won",
    "game_title": "Title",
    "this_game": "This game: title, delete",
    "rename": "Rename",
    "renamed": "Renamed.",
    "delete_confirm": "Yes, delete this game and all its entries",
    "delete_game": "Delete this game",
    "deleted": "Deleted {title}.",
    "no_saved_games": "No saved games yet.",
    "open": "Open",
    "entries_n": "{n} entries",
    "import_json": "Import a JSON record",
    "import_paste": "Paste the record JSON",
    "import_button": "Import",
    "imported": "Imported as a new game.",
    "import_error": "Not imported: {reason}",
    "game_not_found": "No saved game with id {gid}.",
    "db_unusable": "The games database {path} cannot be used: {reason}. Set FUGITIVE_DB to another file, or move this one away.",
    "game_not_assistant": "This game was entered in the assistant: open it from the Assistant.",
    "game_unreadable_rule": "This saved game breaks a rule of this version at entry {n}: {reason}",
    "keep_entries": "Keep entries 1 to {n} and drop the rest",
    "drop_all_entries": "Drop every entry: the first one breaks the rule",
    "kept_entries": "Kept entries 1 to {n}.",
    "game_is_match": "This game is a match: open it from Match or Learning. The assistant does not show a match's record, which holds the Fugitive's hidden cards.",
    "back_to_list": "All games",
    # status
    "turn_fugitive": "Fugitive's turn",
    "turn_marshal": "Your turn (Marshal)",
    "phase_fugitive_opening": "Fugitive's first turn: he places 1 or 2 hideouts",
    "phase_fugitive_opening_two": "Fugitive's first turn: he places 2 hideouts",
    "phase_fugitive_draw": "Fugitive draws a card: from which deck?",
    "phase_fugitive_place": "Fugitive places a hideout or passes",
    "phase_fugitive_bonus_draw": "After his pass: his extra draw, or your draw",
    "phase_marshal_draw": "Your draw: which card did you draw?",
    "phase_marshal_draw_first": "Your first turn: draw 2 cards, then guess",
    "phase_marshal_guess": "Your guess",
    "phase_manhunt": "Manhunt! Guess one number at a time",
    "phase_over": "Game over",
    "winner_fugitive": "The Fugitive won.",
    "winner_marshal": "The Marshal won.",
    "end_escaped_safe": "He played 42 with a hideout of 30 or more face up: he escaped at once, no Manhunt.",
    "end_manhunt_missed": "The Manhunt missed: he got away.",
    "end_all_found": "Every face-down hideout was found.",
    "decks_status": "Decks: {d1} · {d2} · {d3}",
    "row_label": "Row",
    "your_hand": "Your hand",
    "fugitive_hand_size": "Fugitive holds {n}",
    # entries
    "place_hideout": "He placed a hideout with how many sprint cards?",
    "place_escape": "He played 42 (escape) with how many sprint cards?",
    "escape_expander": "Escape: he played 42",
    "pass": "He passed",
    "pass_opening": "End my first turn with one hideout",
    "place_out_of_reach": "{h} is out of reach: choose sprint cards that reach it",
    "fugitive_draw": "He drew from deck",
    "fugitive_draw_extra": "His extra draw after the pass (deck {d})",
    "marshal_draw": "Card you drew",
    "draw_tip": "Suggested deck {d}: {why}",
    "deck_n": "Deck {d} ({n} left)",
    "deck_short": "Deck {d}",
    "guess_numbers": "Numbers you guessed",
    "guess_number": "Number you guessed",
    "warn_hand": "\\* in your hand: cannot hit",
    "miss": "Miss",
    "hit": "Hit",
    "hit_details": "Where was each revealed hideout, and its sprint cards?",
    "position_of": "Position of {x}",
    "choose_position": "choose the position of {x}",
    "sprints_of": "Sprint cards under {x} (needs {k})",
    "confirm_hit": "Save the hit",
    "cancel": "Cancel",
    "select_numbers_first": "Select the numbers first.",
    "undo": "Undo last entry",
    "undone": "Undone: {what}",
    "saved": "Saved: {what}",
    "refused": "Not entered: {reason}",
    "warning": "Note: {reason}",
    "nothing_to_enter": "The game is over: no more entries.",
    # entries log / correct
    "entries": "Entries",
    "no_entries": "No entries yet.",
    "correct_entry": "Correct an entry",
    "entry_to_correct": "Entry",
    "corrected_json": "Corrected entry (JSON)",
    "save_correction": "Save correction",
    "save_correction_json": "Save the JSON correction",
    "corr_sprints": "Sprint cards under it",
    "corr_card": "The card you drew",
    "corr_deck": "The deck he drew from",
    "corrected": "Corrected entry {i}.",
    "correction_breaks": "This correction breaks later entry {i}: {reason}",
    "correct_and_drop": "Correct and drop the last {n} entries",
    "bad_json": "Not a valid entry: {reason}",
    # analysis
    "analysis": "Where is he?",
    "computing": "Computing the probabilities…",
    "contradiction": "Contradiction: no way the Fugitive could have played this. Most likely mistyped: entry {i} ({what}). Correct or undo it.",
    "histories": "{h} possible histories",
    "legend": "dark = certain · red = likely · grey = ruled out · ✓ face up · ◆ your card",
    "positions": "Each face-down hideout",
    "position_n": "#{p} (+{s})",
    "sprint_cards_n": "{n} sprint card(s) under it",
    "suggestions": "Suggested guesses",
    "suggest_reason_fallback": "{p} that it is face down; most likely at #{pos}",
    "suggest_pair": "{p} that all are face down (one guess)",
    "manhunt_next": "Next guess: {x}; chance it hits {p}",
    "manhunt_catch": "Chance of catching him: {p}",
    "manhunt_catch_range": "Chance of catching him: between {lo} and {hi}",
    "export": "Export",
    "download_json": "Download the JSON record",
    "game_id": "Game id",
    "solver_slow": "solved in {ms} ms",
    # event descriptions
    "ev_place": "Fugitive: hideout +{s}",
    "ev_escape": "Fugitive: escape 42 +{s}",
    "ev_pass": "Fugitive: pass",
    "ev_fugitive_draw": "Fugitive: draw from deck {d}",
    "ev_marshal_draw": "Marshal: drew {c}",
    "ev_guess_miss": "Marshal: guess {n} - miss",
    "ev_guess_hit": "Marshal: guess {n} - hit {r}",
    "ev_reveal": "{x} at #{p}",
    "ev_reveal_sprints": "{x} at #{p} over {s}",
    "ev_manhunt_miss": "Manhunt: {n} - miss",
    "ev_manhunt_hit": "Manhunt: {n} - hit at #{p}",
    # match
    "match_intro": "A full game on this device.",
    "mode": "Players",
    "mode_human_marshal": "You are the Marshal vs AI",
    "mode_human_fugitive": "You are the Fugitive vs AI",
    "mode_hotseat": "Two players, one device",
    "mode_ai_ai": "AI vs AI (watch)",
    "bot": "AI",
    "bot_random": "Random",
    "bot_solver_medium": "Solver (medium)",
    "bot_solver_strong": "Solver (strong)",
    "bot_advisor_notepad": "Notepad Marshal (careful human)",
    "bot_advisor_solver": "Advisor: solver",
    "bot_advisor_lookahead": "Advisor: lookahead (strongest)",
    "bot_advisor_heuristic": "Advisor: heuristic",
    "bot_advisor_adversarial": "Advisor: adversarial (strongest)",
    "bot_advisor_search": "Advisor: search",
    "bot_level_fugitive_casual": "Casual: short steps, a bluff now and then",
    "bot_level_fugitive_careful": "Careful: keeps your best guess unlikely",
    "bot_level_fugitive_expert": "Expert: reads what you can deduce, and bluffs",
    "bot_level_marshal_casual": "Casual: reasons with pen and paper",
    "bot_level_marshal_careful": "Careful: follows the assistant's advice",
    "bot_level_marshal_expert": "Expert: the advice, looking a guess ahead",
    "ev_marshal_drew_from": "Marshal: drew from deck {d}",
    "seed": "Shuffle seed (empty: random)",
    "bad_seed": "The seed must be a whole number from 0 to {limit}, or empty for a random one, not {text}.",
    "seed_is_public": "Leave it empty for a secret deal: a deal from a seed you type can be replayed by anyone who knows the seed, every card shown.",
    "learning_after_match": "This match is still on: Learning shows it once it is over, so that the Fugitive's screen never shows the Marshal's cards.",
    "match_broken": "This match cannot go on: its saved moves do not follow from its shuffle seed.",
    "not_saved": "Not saved: {reason}",
    "start_match": "Start the match",
    "assist_panel": "Assistant panel",
    "handover_title": "Hand the device to the {who}",
    "handover_ready": "I am the {who}: show my cards",
    "fugitive": "Fugitive",
    "marshal": "Marshal",
    "hand_of": "{who}'s hand",
    "deck_sizes": "Decks",
    "choose_hideout": "Hideout to place",
    "choose_sprints": "Sprint cards under it",
    "reach_info": "Reach: up to {r}",
    "place_button": "Place",
    "pass_button": "Pass",
    "decline_button": "No extra draw",
    "draw_from": "Draw from",
    "guess_button": "Guess",
    "step": "Next move",
    "play_to_end": "Play to the end",
    "ai_thinking": "The AI moves…",
    "illegal": "Not allowed: {reason}",
    "last_moves": "Moves",
    "since_your_move": "Since your last move:",
    "last_move": "Last move:",
    "open_in_learning": "Open in Learning",
    "new_match": "New match",
    "waiting_for_ai": "The AI is to move.",
    "your_turn": "Your turn",
    "you_opening": "place 1 or 2 hideouts",
    "you_opening_two": "place 2 hideouts",
    "you_place": "place a hideout or pass",
    "you_bonus_draw": "an extra draw, or go on",
    "guess_numbers_match": "Numbers to guess",
    "guess_number_match": "Number to guess",
    # learning
    "learning_intro": "Replay a saved game move by move and see how each guess compared with the best one.",
    "pick_game": "Game",
    "after_move_n": "After move {i} of {n}",
    "prev": "◀",
    "next": "▶",
    "grades": "Your guesses, graded",
    "grade_line": "You guessed {g} at {p}; {b} was {bp}.",
    "grade_best": "You guessed {g} at {p}: the best guess.",
    "grade_line_bot": "The Marshal guessed {g} at {p}; {b} was {bp}.",
    "grade_best_bot": "The Marshal guessed {g} at {p}: the best guess.",
    "no_guesses": "No guesses in this game yet.",
    # tutorial
    "tutorial_intro": "Fugitive in seven short steps.",
    "tut_next": "Next step",
    "tut_prev": "Back",
    "tut_check": "Check",
    "tut_right": "Right!",
    "tut_wrong": "Not quite: {why}",
    "tut1_title": "1. The cards",
    "tut1_text": "43 hideout cards, 0 to 42. 0 starts face up. The Fugitive holds 1, 2, 3 and 42 and draws 3 cards from deck 1 (4–14) and 2 from deck 2 (15–28); deck 3 is 29–41. Odd cards have 1 footprint, even cards 2.",
    "tut1_q": "How many footprints does card 17 have?",
    "tut1_why": "17 is odd: 1 footprint.",
    "tut2_title": "3. Placing a hideout",
    "tut2_text": "A new hideout must be higher than the previous one and at most 3 above it. Sprint cards placed face down under it add their footprints to the reach. The Marshal sees how many sprint cards, not which.",
    "tut2_q": "The previous hideout is 4. Which of these can the Fugitive place without sprint cards?",
    "tut2_why": "Only 5, 6 and 7 are at most 3 above 4.",
    "tut3_title": "5. Guessing",
    "tut3_text": "After drawing, the Marshal names one or more numbers. Only if every number is a face-down hideout are they all turned face up, with their sprint cards.",
    "tut3_q": "Hideouts 5 and 9 are face down. The Marshal guesses 5 and 8. What is revealed?",
    "tut3_a1": "nothing",
    "tut3_a2": "5",
    "tut3_a3": "5 and 8",
    "tut3_why": "8 is not a hideout, so nothing is revealed.",
    "tut4_title": "6. The escape and the Manhunt",
    "tut4_text": "Placing 42 is the escape. If the highest revealed hideout is 30 or more he wins at once; otherwise the Marshal guesses single numbers: each hit goes on, the first miss lets him go; revealing every hideout catches him.",
    "tut4_q": "He plays 42; the highest revealed hideout is 27. What happens?",
    "tut4_a1": "He wins at once",
    "tut4_a2": "A Manhunt",
    "tut4_why": "27 is below 30: a Manhunt starts.",
    "tut5_title": "7. Play, or use this app at a real table",
    "tut5_text": "Match: a whole game on this device, as the Marshal or the Fugitive against the AI, two players passing the device, or AI against AI to watch. Learning: replay a finished game move by move, see where the Fugitive really was, how each guess compared with the best one, and (for the Fugitive) how exposed each hideout was. Assistant: at a real table, tap what happens in order (his placements as their number of sprint cards, passes and decks; your own draws; your guesses and, on a hit, the position and sprint cards); the grid shows how likely every number is to be a face-down hideout.",
    # assistant at a real table (issue 15)
    "cell_sprint": "sprint",
    "legend_sprint": "dashed = a face-up sprint card",
    "more_candidates": "and {n} more",
    "deck_cards": "Deck {d} · {n} left in the deck · {u} you have not seen",
    "deck_empty": "Deck {d} · empty",
    "draw_tip_deck": "suggested: deck {d}",
    "last_entry": "Entry {i}: {what}",
    "no_entries_yet": "No entries yet: start with his first hideout.",
    "fix_sprints": "Entry {i} said +{old}; the table shows {new} sprint cards: correct it to +{new} and save the hit",
    "fixed_sprints": "Corrected entry {i} to +{new} and saved the hit.",
    "open_entry": "Open entry {i}",
    "editing": "Entry {i}: {what}",
    "close": "Close",
    "edit_json": "Correct it as JSON",
    "corr_place": "Sprint cards under it (tap the right count)",
    "corr_escape": "Sprint cards under 42 (tap the right count)",
    "corrected_to": "Corrected entry {i}: {what}",
    "hit_of": "Hit: {n}",
    "revealed_which": "Revealed card",
    "hit_summary_line": "{x} at #{p}: {cards}",
    "no_sprint_cards": "no sprint cards",
    "hand_cannot_hit": "◆ {x}: in your hand, cannot hit",
    "manhunt_zero": "{x} is at 0%: it cannot be a hideout, so this guess ends the Manhunt",
    "refreshed": "Updated: this game was changed in another window or on another device.",
    "phone_title": "Open this page on your phone",
    "phone_scan": "Scan this with the phone's camera, or type the address:",
    "phone_help": "The phone must be on the same Wi-Fi (network) as this computer. If the page does not open on the phone, allow incoming connections to port {port} in this computer's firewall.",
    "phone_local_only": "This server answers only on this computer (server.address {address}). Start it with `--server.address 0.0.0.0` (`make run` answers on the network already) so that the phone can reach it.",
    "phone_no_network": "This computer has no network address: connect it to the Wi-Fi the phone uses, then reload this page.",
    # the advisor's reasons whose English said one probability twice ("19% … probability 0.19")
    "adv_certain_plus": "{cert} {verb} certain; adding {unc} ({p}) reveals {words} hideouts if it hits{win}",
    "adv_multi": "{nums}: all hideouts with probability {p}; {words} reveals if it hits{win}",
    "adv_win": " and wins the game",
    "adv_spot": ", most likely at position {pos}",
}

KO: dict[str, str] = {
    "app_title": "도망자",
    "nav_assistant": "도우미",
    "nav_match": "대전",
    "nav_learning": "복기",
    "nav_tutorial": "규칙",
    "assistant_intro": "실제 게임을 진행 순서대로 입력하세요. 입력할 때마다 도망자가 있을 수 있는 곳을 보여 줍니다.",
    "new_game": "새 게임",
    "title": "제목",
    "opening_rule": "첫 차례",
    "opening_one_or_two": "은신처 1~2장 (규칙서)",
    "opening_two": "은신처 정확히 2장",
    "pass_draw_rule": "패스 후 추가로 1장 뽑기 (2판)",
    "start": "시작",
    "saved_games": "저장된 게임",
    "show_all_games": "게임 {n}개 모두 보기",
    "list_over": "끝남: {winner}",
    "list_manhunt": "마지막 추적",
    "list_fugitive": "도망자 차례",
    "list_marshal": "내 차례",
    "list_fugitive_name": "도망자 승리",
    "list_marshal_name": "나의 승리",
    "game_title": "제목",
    "this_game": "이 게임: 제목, 삭제",
    "rename": "제목 바꾸기",
    "renamed": "제목을 바꿨습니다.",
    "delete_confirm": "네, 이 게임과 모든 입력을 지웁니다",
    "delete_game": "이 게임 지우기",
    "deleted": "{title}을(를) 지웠습니다.",
    "no_saved_games": "저장된 게임이 없습니다.",
    "open": "열기",
    "entries_n": "입력 {n}개",
    "import_json": "JSON 기록 가져오기",
    "import_paste": "기록 JSON을 붙여 넣으세요",
    "import_button": "가져오기",
    "imported": "새 게임으로 가져왔습니다.",
    "import_error": "가져오지 못했습니다: {reason}",
    "game_not_found": "ID {gid}인 게임이 없습니다.",
    "db_unusable": "게임 데이터베이스 {path}을(를) 쓸 수 없습니다: {reason}. FUGITIVE_DB를 다른 파일로 정하거나 이 파일을 옮기세요.",
    "game_not_assistant": "이 게임은 도우미에서 입력한 게임입니다. 도우미에서 여세요.",
    "game_unreadable_rule": "이 저장된 게임은 이 버전의 규칙에 입력 {n}에서 맞지 않습니다: {reason}",
    "keep_entries": "입력 1~{n}만 남기고 나머지 지우기",
    "drop_all_entries": "입력을 모두 지우기: 첫 입력이 규칙에 맞지 않습니다",
    "kept_entries": "입력 1~{n}을(를) 남겼습니다.",
    "game_is_match": "이 게임은 대전입니다. 대전이나 복기에서 여세요. 대전 기록에는 도망자의 숨은 카드가 있어서 도우미에서는 보여 주지 않습니다.",
    "back_to_list": "게임 목록",
    "turn_fugitive": "도망자 차례",
    "turn_marshal": "내 차례 (수사관)",
    "phase_fugitive_opening": "도망자의 첫 차례: 은신처 1장 또는 2장",
    "phase_fugitive_opening_two": "도망자의 첫 차례: 은신처 2장",
    "phase_fugitive_draw": "도망자가 카드를 뽑습니다: 어느 덱에서?",
    "phase_fugitive_place": "도망자가 은신처를 놓거나 패스합니다",
    "phase_fugitive_bonus_draw": "패스 후: 도망자의 추가 뽑기 또는 나의 뽑기",
    "phase_marshal_draw": "나의 뽑기: 어떤 카드를 뽑았나요?",
    "phase_marshal_draw_first": "나의 첫 차례: 2장을 뽑고 수사 시도",
    "phase_marshal_guess": "수사 시도",
    "phase_manhunt": "마지막 추적! 숫자를 하나씩 말하세요",
    "phase_over": "게임 종료",
    "winner_fugitive": "도망자가 이겼습니다.",
    "winner_marshal": "수사관이 이겼습니다.",
    "end_escaped_safe": "30 이상의 은신처가 공개된 채로 42를 놓아 바로 탈출했습니다. 마지막 추적은 없습니다.",
    "end_manhunt_missed": "마지막 추적이 빗나가 도망자가 달아났습니다.",
    "end_all_found": "뒷면 은신처를 모두 찾았습니다.",
    "decks_status": "덱: {d1} · {d2} · {d3}",
    "row_label": "은신처 줄",
    "your_hand": "내 카드",
    "fugitive_hand_size": "도망자 카드 {n}장",
    "place_hideout": "은신처를 놓았습니다. 도약 카드는 몇 장?",
    "place_escape": "42(탈출)를 놓았습니다. 도약 카드는 몇 장?",
    "escape_expander": "탈출: 42를 놓았습니다",
    "pass": "패스했습니다",
    "pass_opening": "은신처 하나로 첫 차례 끝내기",
    "place_out_of_reach": "{h}에 닿지 않습니다: 닿을 만큼 도약 카드를 고르세요",
    "fugitive_draw": "도망자가 뽑은 덱",
    "fugitive_draw_extra": "패스 후 추가 뽑기 (덱 {d})",
    "marshal_draw": "내가 뽑은 카드",
    "draw_tip": "추천 덱 {d}: {why}",
    "deck_n": "덱 {d} ({n}장 남음)",
    "deck_short": "덱 {d}",
    "guess_numbers": "수사 시도한 숫자",
    "guess_number": "수사 시도한 숫자",
    "warn_hand": "\\* 내 카드: 맞을 수 없음",
    "miss": "실패",
    "hit": "성공",
    "hit_details": "공개된 은신처의 위치와 도약 카드는?",
    "position_of": "{x}의 위치",
    "choose_position": "{x}의 위치를 고르세요",
    "sprints_of": "{x} 아래의 도약 카드 ({k}장)",
    "confirm_hit": "성공 저장",
    "cancel": "취소",
    "select_numbers_first": "먼저 숫자를 고르세요.",
    "undo": "마지막 입력 취소",
    "undone": "취소됨: {what}",
    "saved": "저장됨: {what}",
    "refused": "입력하지 않았습니다: {reason}",
    "warning": "참고: {reason}",
    "nothing_to_enter": "게임이 끝났습니다.",
    "entries": "입력 기록",
    "no_entries": "아직 입력이 없습니다.",
    "correct_entry": "입력 고치기",
    "entry_to_correct": "입력",
    "corrected_json": "고친 입력 (JSON)",
    "save_correction": "고친 내용 저장",
    "save_correction_json": "고친 JSON 저장",
    "corr_sprints": "그 아래의 도약 카드",
    "corr_card": "내가 뽑은 카드",
    "corr_deck": "도망자가 뽑은 덱",
    "corrected": "입력 {i}을(를) 고쳤습니다.",
    "correction_breaks": "이렇게 고치면 뒤의 입력 {i}이(가) 맞지 않습니다: {reason}",
    "correct_and_drop": "고치고 마지막 {n}개 입력 지우기",
    "bad_json": "올바른 입력이 아닙니다: {reason}",
    "analysis": "도망자는 어디에?",
    "computing": "확률 계산 중…",
    "contradiction": "모순: 이렇게 진행될 수는 없습니다. 잘못 입력했을 가능성이 가장 큰 것: 입력 {i} ({what}). 고치거나 취소하세요.",
    "histories": "가능한 경우 {h}가지",
    "legend": "진함 = 확실 · 빨강 = 유력 · 회색 = 불가능 · ✓ 공개됨 · ◆ 내 카드",
    "positions": "뒷면 은신처별 후보",
    "sprint_cards_n": "그 아래 도약 카드 {n}장",
    "position_n": "#{p} (+{s})",
    "suggestions": "추천 수사 시도",
    "suggest_reason_fallback": "뒷면 은신처일 확률 {p}; 가장 유력한 위치 #{pos}",
    # the advisor's reasons (advisor.guesses.REASONS), said in Korean
    "adv_certain": "{nums}: 확실한 은신처 — 은신처 {k}장을 확실히 공개합니다{win}",
    "adv_certain_plus": "{cert}: 확실; {unc}({p})를 더하면 {p}의 확률로 은신처 {k}장을 공개합니다{win}",
    "adv_single": "{x}: 남은 은신처 중 가장 유력 ({p}{spot}){win}",
    "adv_cannot": "{x}: 맞힐 수 없음",
    "adv_multi": "{nums}: 모두 은신처일 확률 {p} — 맞히면 은신처 {k}장 공개{win}",
    "adv_win": ", 게임 승리",
    "adv_spot": ", 가장 유력한 위치 #{pos}",
    "adv_draw_blocking": "막기: 도망자의 줄은 이미 {top}까지 닿습니다. 42에 가려면 덱 3의 숫자를 지나야 하고, 내가 가진 덱 3 카드는 그가 쓸 수 없습니다",
    "adv_draw_candidates": "덱 {d}의 카드가 가장 많이 배제합니다: 남은 {left}장에 뒷면 은신처가 평균 {mass}장 있습니다",
    "adv_draw_nothing": "아직 어느 덱의 카드도 은신처일 수 없어 어느 덱이든 같습니다; 덱 {d}에 {left}장 남았습니다",
    "adv_draw_exhausted": " (덱 {decks} 소진)",
    # the notepad validator's messages (notepad.validator MESSAGES, PHRASES, WARNINGS), said in
    # Korean: "rule_<code>" with the placeholders of the English template. English comes from
    # the validator itself, so EN has no rule_* keys. {event} is shown as the entry number.
    "rule_bad_setup": "도망자의 시작 카드는 1번 덱(4~14) 3장과 2번 덱(15~28) 2장이어야 합니다. 입력된 카드: {setup}",
    "rule_game_over": "게임이 끝난 뒤에는 아무것도 입력할 수 없습니다 ({winner} 승리)",
    "rule_not_an_event": "기록의 항목이 아닙니다: {value}",
    "rule_manhunt_guess_without_escape": "마지막 추적의 수사 시도는 도망자가 42로 탈출해 마지막 추적이 시작된 뒤에만 할 수 있습니다",
    "rule_not_allowed_now": "지금은 {kind}을(를) 입력할 수 없습니다: {expected}",
    "rule_opening_max_two": "도망자는 첫 차례에 은신처를 2장까지만 놓습니다",
    "rule_hideout_sprints_exceed_hand": "도약 카드 {sprints}장을 쓴 은신처에는 42 외의 카드가 {need}장 필요하지만, 도망자에게는 {held}장뿐입니다",
    "rule_escape_sprints_exceed_hand": "도약 카드 {sprints}장을 쓴 탈출에는 42 외의 카드가 {need}장 필요하지만, 도망자에게는 {held}장뿐입니다",
    "rule_escape_out_of_reach": "42는 닿을 수 없습니다: 이전 은신처 {previous}에서 도약 카드 {sprints}장으로는 최대 {reach}까지입니다",
    "rule_place_hidden_fields": "place.hideout과 place.sprint_cards는 비공개 정보라서 수사관의 기록(fugitive_setup 없음)에는 넣을 수 없습니다",
    "rule_place_needs_hideout": "전체 기록에는 모든 place에 place.hideout이 필요합니다",
    "rule_place_needs_sprint_cards": "전체 기록에는 도약 카드를 쓴 모든 place에 place.sprint_cards가 필요합니다",
    "rule_fugitive_lacks_card": "도망자에게는 {card}이(가) 없습니다",
    "rule_fugitive_lacks_seen_card": "도망자에게는 {card}이(가) 없습니다 ({card}은(는) {how}입니다)",
    "rule_fugitive_lacks_played_card": "도망자에게는 {card}이(가) 없습니다 (이미 사용한 카드로, {how}였습니다)",
    "rule_hideout_not_higher": "은신처 {hideout}은(는) 이전 은신처 {prev}보다 커야 합니다",
    "rule_hideout_out_of_reach": "은신처 {hideout}에는 닿을 수 없습니다: 이전 {prev} + 3 + 도약 카드 발자국 {sprint_sum} = {reach}",
    "rule_opening_blocks_second": "은신처 2장 규칙에서는 첫 은신처 뒤에 두 번째 은신처를 놓을 수 있어야 합니다. {hideout} 뒤에는 {cards} 중 어느 것도 놓을 수 없습니다",
    "rule_fugitive_draw_empty_deck": "도망자가 덱 {deck}에서 뽑았다고 했지만, 덱 {deck}은(는) 비어 있습니다",
    "rule_extra_draw_not_lowest": "패스 후 추가 뽑기는 카드가 남은 가장 낮은 덱인 덱 {lowest}에서 합니다 (덱 {deck}이(가) 아님)",
    "rule_fugitive_draw_needs_card": "전체 기록에는 fugitive_draw.card가 필요합니다",
    "rule_card_not_in_deck": "{card}은(는) 덱 {deck}의 카드가 아닙니다",
    "rule_fugitive_draw_card_seen": "도망자가 {card}을(를) 뽑았다고 했지만, {card}은(는) 이미 {how}입니다",
    "rule_fugitive_draw_hidden_card": "fugitive_draw.card는 비공개 정보라서 수사관의 기록(fugitive_setup 없음)에는 넣을 수 없습니다",
    "rule_card_in_no_deck": "{card}을(를) 뽑았다고 했지만, {card}은(는) 어느 덱에도 없습니다",
    "rule_marshal_draw_card_seen": "{card}을(를) 뽑았다고 했지만, {card}은(는) 이미 {how}입니다",
    "rule_marshal_draw_empty_deck": "{card}을(를) 뽑았다고 했지만, 덱 {deck}은(는) 비어 있습니다",
    "rule_marshal_draw_fugitive_card": "{card}을(를) 뽑았다고 했지만, {card}은(는) 도망자의 카드입니다 ({how})",
    "rule_guess_face_up": "{number}은(는) 이미 공개되어 있습니다 (위치 #{position}). 공개된 숫자로는 수사 시도를 할 수 없습니다",
    "rule_guess_face_up_sprint": "{number}은(는) 도약 카드로 공개되어 있습니다 (위치 #{position}). 공개된 숫자로는 수사 시도를 할 수 없습니다",
    "rule_hit_reveals_other_numbers": "수사 시도에 성공하면 말한 숫자가 정확히 공개되어야 합니다",
    "rule_manhunt_hit_needs_position": "마지막 추적의 수사 시도에 성공하면 공개된 은신처의 위치가 필요합니다",
    "rule_reveal_beyond_row": "{number}을(를) 위치 #{position}에서 공개했다고 했지만, 은신처는 {row}장뿐입니다",
    "rule_reveal_face_up": "{number}을(를) 위치 #{position}에서 공개했다고 했지만, 위치 #{position}은(는) 이미 공개되어 있습니다 ({face_up})",
    "rule_reveal_position_twice": "두 공개가 같은 위치 #{position}을(를) 가리킵니다",
    "rule_reveal_sprint_count": "위치 #{position}의 은신처 아래에는 도약 카드가 {sprints}장 있지만, 공개한 도약 카드는 {listed}장입니다",
    "rule_revealed_card_seen": "공개된 {role} {card}은(는) 이미 {how}입니다",
    "rule_revealed_card_twice": "공개된 {role} {card}이(가) 두 번 공개되었습니다",
    "rule_reveal_not_increasing": "위치 #{position}의 {number}은(는) 위치 #{prev_position}의 {prev}보다 커야 합니다",
    "rule_reveal_no_room": "위치 #{position}의 {number}와(과) 위치 #{prev_position}의 {prev} 사이에 은신처 {between}장이 들어갈 수 없습니다",
    "rule_guess_hits": "말한 숫자({numbers})가 모두 뒷면 은신처이므로 수사 시도는 성공입니다",
    "rule_guess_misses": "{numbers}은(는) 뒷면 은신처가 아니므로 수사 시도는 실패입니다",
    "rule_reveal_wrong_position": "{number}은(는) 위치 #{position}이 아니라 위치 #{real}에 있습니다",
    "rule_reveal_wrong_sprint_cards": "{number} 아래의 도약 카드는 [{listed}]이(가) 아니라 [{real}]입니다",
    # parts of the messages above
    "rule_player_fugitive": "도망자",
    "rule_player_marshal": "수사관",
    "rule_kind_place": "은신처 놓기",
    "rule_kind_pass": "패스",
    "rule_kind_fugitive_draw": "도망자의 카드 뽑기",
    "rule_kind_marshal_draw": "수사관의 카드 뽑기",
    "rule_kind_guess": "수사 시도",
    "rule_kind_manhunt_guess": "마지막 추적의 수사 시도",
    "rule_role_hideout": "은신처",
    "rule_role_sprint_card": "도약 카드",
    "rule_how_drawn": "입력 {event}에서 수사관이 뽑은 카드",
    "rule_how_revealed": "입력 {event}에서 위치 #{position}에 공개된 은신처",
    "rule_how_revealed_sprint": "입력 {event}에서 위치 #{position}에 도약 카드로 공개된 카드",
    "rule_how_in_setup": "도망자의 시작 카드",
    "rule_how_drawn_by_fugitive": "입력 {event}에서 도망자가 뽑은 카드",
    "rule_expect_opening_place": "도망자의 첫 차례는 은신처 놓기로 시작합니다 (뽑기 없음)",
    "rule_expect_opening_two": "첫 차례에는 은신처를 정확히 2장 놓습니다 (은신처 2장 규칙)",
    "rule_expect_opening_second": "도망자가 첫 차례의 두 번째 은신처를 놓거나, 수사관이 카드 2장을 뽑습니다",
    "rule_expect_fugitive_draw": "덱에 카드가 있으면 도망자의 차례는 카드 뽑기로 시작합니다",
    "rule_expect_fugitive_action": "카드를 뽑은 뒤 도망자는 은신처를 놓거나 패스합니다",
    "rule_expect_after_pass": "패스 뒤에는 도망자의 추가 뽑기나 수사관의 카드 뽑기가 옵니다",
    "rule_expect_marshal_first_turn": "수사관의 첫 차례는 카드 2장을 뽑은 뒤 수사 시도입니다",
    "rule_expect_marshal_second_draw": "수사관의 첫 차례에는 수사 시도 전에 카드를 1장 더 뽑습니다",
    "rule_expect_marshal_draw": "덱에 카드가 있으면 수사관의 차례는 카드 뽑기로 시작합니다",
    "rule_expect_marshal_guess": "수사관은 카드를 뽑은 뒤 수사 시도를 합니다",
    "rule_expect_manhunt": "탈출 뒤에는 마지막 추적의 수사 시도만 합니다",
    "rule_expect_over": "게임이 끝났습니다",
    # the validator's warning
    "rule_guess_in_marshal_hand": "{number}은(는) 수사관의 카드이므로 맞을 수 없습니다",
    # the record reader's format faults (engine.record FORMAT_MESSAGES, FORMAT_PHRASES), said in
    # Korean: "format_<code>" with the placeholders of the English template. Names of the JSON
    # (sprints, marshal_draw, ...) stay as they are written in the record.
    "format_not_json": "올바른 JSON이 아닙니다: {problem} ({line}행 {column}열, 위치 {char})",
    "format_not_text": "올바른 JSON이 아닙니다: 글자를 읽을 수 없습니다 ({detail})",
    "format_nested_too_deeply": "JSON이 너무 깊게 중첩되어 있습니다",
    "format_huge_number": "올바른 JSON이 아닙니다: {limit}자리가 넘는 수가 있습니다",
    "format_unreadable_file": "{path}을(를) 읽을 수 없습니다: {detail}",
    "format_not_whole_number": "{what}은(는) 정수여야 합니다 ({value}이(가) 아님)",
    "format_out_of_range": "{what}은(는) {lo}~{hi} 사이여야 합니다 ({value}이(가) 아님)",
    "format_not_card_list": "{what}은(는) 카드 번호의 목록이어야 합니다",
    "format_card_twice": "{what}에 같은 카드가 두 번 있습니다: {cards}",
    "format_not_bool": "{what}은(는) true 또는 false여야 합니다 ({value}이(가) 아님)",
    "format_unknown_field": "{what}에 알 수 없는 필드 {key!r}이(가) 있습니다",
    "format_missing_field": "{what}에 필드 {key!r}이(가) 필요합니다",
    "format_event_not_object": "기록의 각 입력은 JSON 객체여야 합니다",
    "format_unknown_event_type": "알 수 없는 입력 종류 {type}입니다 ({types} 중 하나여야 합니다)",
    "format_sprint_count": "sprints는 {sprints}인데 sprint_cards에는 카드가 {listed}장 있습니다",
    "format_hideout_is_sprint": "{hideout}은(는) 은신처이면서 도약 카드일 수 없습니다",
    "format_card_not_in_deck": "{card}은(는) 덱 {deck}의 카드가 아닙니다",
    "format_guess_without_numbers": "수사 시도에는 숫자가 하나 이상 필요합니다",
    "format_miss_with_reveals": "실패한 수사 시도는 아무것도 공개하지 않는데, reveals가 있습니다",
    "format_hit_without_reveals": "성공한 수사 시도에는 reveals(말한 숫자마다 위치와 도약 카드)가 필요합니다",
    "format_reveals_not_list": "reveals는 목록이어야 합니다",
    "format_reveal_not_object": "reveals의 각 항목은 JSON 객체여야 합니다",
    "format_hit_reveals_other_numbers":
        "수사 시도에 성공하면 말한 숫자 {numbers}이(가) 정확히 공개되어야 합니다 ({revealed}이(가) 아님)",
    "format_manhunt_miss_reveals": "실패한 마지막 추적의 수사 시도는 아무것도 공개하지 않습니다",
    "format_manhunt_hit_needs_position": "마지막 추적의 수사 시도에 성공하면 공개된 은신처의 위치가 필요합니다",
    "format_record_not_object": "기록은 JSON 객체여야 합니다",
    "format_wrong_format": '"format"은(는) "{expected}"이어야 합니다 ({value}이(가) 아님)',
    "format_unsupported_version": "지원하지 않는 버전 {version}입니다: 이 프로그램은 버전 {known}을(를) 읽습니다",
    "format_ruleset_not_object": "ruleset은 JSON 객체여야 합니다",
    "format_bad_opening": 'ruleset.opening은 "one-or-two" 또는 "two"여야 합니다 ({value}이(가) 아님)',
    "format_setup_size": "fugitive_setup에는 카드가 5장 있어야 합니다 ({count}장이 아님)",
    "format_events_not_list": "events는 목록이어야 합니다",
    # parts of the messages above
    "format_each_of": "{what}의 각 값",
    "format_the_record": "기록",
    "format_a_reveal": "reveals의 항목",
    "format_reveal_field": "reveals의 {field}",
    "format_json_expecting_value": "값이 있어야 합니다",
    "format_json_expecting_name": "큰따옴표로 감싼 필드 이름이 있어야 합니다",
    "format_json_expecting_colon": "':'이(가) 있어야 합니다",
    "format_json_expecting_comma": "','이(가) 있어야 합니다",
    "format_json_extra_data": "JSON 뒤에 다른 내용이 있습니다",
    "format_json_unterminated_string": "문자열이 닫히지 않았습니다",
    "format_json_control_character": "문자열 안에 제어 문자가 있습니다",
    "format_json_bad_escape": "잘못된 \\ 이스케이프",
    "format_json_bad_unicode_escape": "잘못된 \\uXXXX 이스케이프",
    # the store's refusals (notepad.store STORE_MESSAGES), said in Korean: "store_<code>";
    # {error} is the reader's or the validator's error, said in Korean itself
    "store_bad_record": "올바른 게임 기록이 아닙니다: {error}",
    "store_breaks_rule": "기록이 규칙에 맞지 않습니다: {error}",
    "store_newer_schema": "{path}의 스키마 버전은 {version}이지만, 이 프로그램은 버전 {known}까지만 읽습니다",
    "store_no_game": "ID {game_id!r}인 게임이 없습니다",
    "store_foreign_database": "{path}은(는) Fugitive 데이터베이스가 아닙니다: 다른 테이블이 있습니다 ({tables})",
    "store_changed_elsewhere": "게임 {game_id!r}이(가) 여기서 연 뒤에 다른 창이나 기기에서 바뀌었습니다. 저장하지 않았고, 지금 저장된 게임을 보여 줍니다",
    "store_unreadable_game": "게임 {game_id!r}을(를) 읽을 수 없습니다: {error}",
    "store_bad_kind": "게임 종류는 {kinds} 중 하나여야 합니다 ({kind!r}이(가) 아님)",
    "store_empty_title": "제목이 비어 있으면 안 됩니다",
    "store_long_title": "제목은 {limit}자 이하여야 합니다",
    "store_metadata_not_object": "메타데이터는 JSON 객체여야 합니다",
    "store_metadata_not_json": "메타데이터는 일반 JSON이어야 합니다: {detail}",
    "store_no_database": "{where}에 Fugitive 데이터베이스가 없습니다",
    "store_bad_database_url": "{url}은(는) SQLite 파일도 postgresql:// URL도 아닙니다 ({scheme!r}(으)로 시작함)",
    "store_database_error": "데이터베이스 {where}: {reason}",
    "store_bad_role": "역할은 {roles} 중 하나여야 합니다 ({role!r}이(가) 아님)",
    "store_bad_owner_key": "소유자 키는 URL에 쓸 수 있는 문자 {low}~{high}자여야 합니다 (notepad.access.new_owner_key가 만듭니다)",
    "store_not_online": "게임 {game_id!r}은(는) 링크로 하는 대전이 아닙니다",
    "store_already_rematched": "게임 {game_id!r}에는 이미 재대전이 있습니다: {rematch_id!r}",
    # the engine's illegal moves (engine.errors MOVE_MESSAGES, MOVE_PHRASES), said in Korean:
    # "move_<code>" with the placeholders of the English template (IllegalMove.params)
    "move_game_over": "게임이 끝났습니다: {winner}의 승리입니다",
    "move_game_over_no_winner": "게임이 끝났습니다",
    "move_wrong_time": "지금은 {what} 수 없습니다: {doing}입니다",
    "move_not_a_move": "{move}은(는) 올바른 수가 아닙니다",
    "move_no_such_deck": "덱 {deck!r}은(는) 없습니다: 덱은 1, 2, 3입니다",
    "move_deck_empty": "덱 {deck}은(는) 비어 있습니다",
    "move_bonus_draw_not_lowest": "패스 후 추가 뽑기는 카드가 남은 가장 낮은 덱인 덱 {lowest}에서만 할 수 있습니다",
    "move_not_a_hideout_card": "{hideout!r}은(는) 은신처 카드가 아닙니다: 은신처 카드는 1~42입니다",
    "move_hideout_not_held": "도망자에게는 {hideout}이(가) 없습니다",
    "move_escape_as_sprint": "42는 도약 카드로 쓸 수 없습니다: 탈출 카드라서 은신처로만 놓을 수 있습니다",
    "move_hideout_is_sprint": "{hideout}은(는) 은신처이면서 그 아래의 도약 카드일 수 없습니다",
    "move_sprint_card_not_held": "도망자에게는 도약 카드 {card}이(가) 없습니다",
    "move_sprint_cards_not_held": "도망자에게는 도약 카드 {cards}이(가) 없습니다",
    "move_hideout_not_higher": "{hideout}은(는) 이전 은신처 {previous}보다 커야 합니다",
    "move_out_of_reach_no_sprints":
        "{hideout}은(는) 이전 은신처 {previous}보다 {step} 넘게 크지만 도약 카드가 없습니다 (+{need} 필요)",
    "move_out_of_reach":
        "{hideout}은(는) 이전 은신처 {previous}보다 {step} 넘게 크지만 도약 카드로는 +{sprints}만 늘어납니다 (+{need} 필요)",
    "move_opening_blocks_second":
        "은신처 2장 규칙에서는 첫 은신처 뒤에 두 번째 은신처를 놓을 수 있어야 하는데, "
        "{hideout}을(를) 이 도약 카드로 놓으면 남은 카드 중 어느 것도 그 뒤에 놓을 수 없습니다",
    "move_opening_pass_two": "도망자는 첫 차례에 패스할 수 없습니다: 은신처를 정확히 2장 놓아야 합니다",
    "move_opening_pass": "도망자는 첫 차례에 패스할 수 없습니다: 은신처를 1장 또는 2장 놓아야 합니다",
    "move_opening_needs_second": "은신처 2장 규칙에서는 도망자가 첫 차례에 두 번째 은신처를 놓아야 합니다",
    "move_fugitive_draw_first": "도망자는 먼저 카드를 뽑고(카드가 남은 덱 어디에서나) 그다음 은신처를 놓거나 패스합니다",
    "move_not_guessable": "{number!r}(으)로는 수사 시도를 할 수 없습니다: 1~41의 숫자만 말할 수 있습니다",
    "move_guess_face_up": "{number}은(는) 이미 공개되어 있습니다: 공개되지 않은 숫자를 말하세요",
    "move_guess_face_up_sprint": "{number}은(는) 도약 카드로 공개되어 있습니다: 공개되지 않은 숫자를 말하세요",
    "move_manhunt_single_guess": "마지막 추적에서는 수사관이 숫자를 하나씩 말합니다 (마지막 추적의 수사 시도)",
    "move_marshal_draw_first": "수사관은 먼저 카드를 뽑고(카드가 남은 덱 어디에서나) 그다음 수사 시도를 합니다",
    "move_guess_without_numbers": "수사 시도에는 숫자가 하나 이상 필요합니다",
    "move_manhunt_guess_not_now": "마지막 추적의 수사 시도는 마지막 추적 중에만 할 수 있습니다: 지금은 일반 수사 시도입니다",
    # parts of the messages above: who won, what the move tried ("지금은 ... 수 없습니다"),
    # what the game waits for ("...입니다")
    "move_winner_fugitive": "도망자",
    "move_winner_marshal": "수사관",
    "move_act_draw": "카드를 뽑을",
    "move_act_place": "은신처를 놓을",
    "move_act_pass": "패스할",
    "move_act_decline": "추가 뽑기를 거절할",
    "move_act_guess": "수사 시도를 할",
    "move_act_hunt": "마지막 추적의 수사 시도를 할",
    "move_doing_fugitive_opening": "도망자의 첫 차례(은신처 1장 또는 2장 놓기)",
    "move_doing_fugitive_draw": "도망자가 카드를 뽑을 차례",
    "move_doing_fugitive_place": "도망자가 은신처를 놓거나 패스할 차례",
    "move_doing_fugitive_bonus_draw": "패스한 도망자가 원하면 카드를 1장 더 뽑을 차례",
    "move_doing_marshal_draw": "수사관이 카드를 뽑을 차례",
    "move_doing_marshal_guess": "수사관이 수사 시도를 할 차례",
    "move_doing_manhunt": "마지막 추적(수사관이 숫자를 하나씩 말함)",
    # a refused entry of a record: where in the record, and the reason (Korean only)
    "entry_reason": "입력 {n}: {reason}",
    "suggest_pair": "모두 뒷면 은신처일 확률 {p} (한 번에 시도)",
    "manhunt_next": "다음 시도: {x}; 맞을 확률 {p}",
    "manhunt_catch": "체포할 확률: {p}",
    "manhunt_catch_range": "체포할 확률: {lo}~{hi}",
    "export": "내보내기",
    "download_json": "JSON 기록 내려받기",
    "game_id": "게임 ID",
    "solver_slow": "{ms} ms",
    "ev_place": "도망자: 은신처 +{s}",
    "ev_escape": "도망자: 탈출 42 +{s}",
    "ev_pass": "도망자: 패스",
    "ev_fugitive_draw": "도망자: 덱 {d}에서 뽑기",
    "ev_marshal_draw": "수사관: {c} 뽑음",
    "ev_guess_miss": "수사관: {n} 시도 - 실패",
    "ev_guess_hit": "수사관: {n} 시도 - 성공 {r}",
    "ev_reveal": "{x}: #{p} 위치",
    "ev_reveal_sprints": "{x}: #{p} 위치, 도약 카드 {s}",
    "ev_manhunt_miss": "마지막 추적: {n} - 실패",
    "ev_manhunt_hit": "마지막 추적: {n} - 성공 #{p}",
    "match_intro": "이 기기에서 전체 게임을 합니다.",
    "mode": "플레이어",
    "mode_human_marshal": "나는 수사관 vs AI",
    "mode_human_fugitive": "나는 도망자 vs AI",
    "mode_hotseat": "두 사람이 한 기기로",
    "mode_ai_ai": "AI vs AI (관전)",
    "bot": "AI",
    "bot_random": "무작위",
    "bot_solver_medium": "계산 (보통)",
    "bot_solver_strong": "계산 (강함)",
    "bot_advisor_notepad": "노트 수사관 (신중한 사람)",
    "bot_advisor_solver": "조언: 계산",
    "bot_advisor_lookahead": "조언: 앞보기 (가장 강함)",
    "bot_advisor_heuristic": "조언: 경험",
    "bot_advisor_adversarial": "조언: 적대적 (가장 강함)",
    "bot_advisor_search": "조언: 탐색",
    "bot_level_fugitive_casual": "가볍게: 짧게 움직이고 가끔 허세",
    "bot_level_fugitive_careful": "신중하게: 당신의 최선의 추측을 빗나가게",
    "bot_level_fugitive_expert": "전문가: 당신이 추론할 수 있는 것을 읽고 허세를 부림",
    "bot_level_marshal_casual": "가볍게: 종이와 펜으로 추론",
    "bot_level_marshal_careful": "신중하게: 도우미의 조언을 따름",
    "bot_level_marshal_expert": "전문가: 조언에 한 수 앞을 더해",
    "ev_marshal_drew_from": "수사관: 덱 {d}에서 뽑기",
    "seed": "섞기 시드 (비우면 무작위)",
    "bad_seed": "시드는 0부터 {limit}까지의 정수이거나 비어 있어야 합니다 ({text}이(가) 아님).",
    "seed_is_public": "비워 두면 아무도 모르는 패가 됩니다. 입력한 시드의 패는 시드를 아는 누구나 모든 카드를 보며 다시 볼 수 있습니다.",
    "learning_after_match": "이 대전은 아직 진행 중입니다. 도망자의 화면에 수사관의 카드가 보이지 않도록, 복기는 대전이 끝난 뒤에 볼 수 있습니다.",
    "match_broken": "이 대전은 이어서 할 수 없습니다: 저장된 수가 섞기 시드와 맞지 않습니다.",
    "not_saved": "저장하지 않았습니다: {reason}",
    "start_match": "대전 시작",
    "assist_panel": "도우미 패널",
    "handover_title": "기기를 {who}에게 넘기세요",
    "handover_ready": "나는 {who}입니다: 내 카드 보기",
    "fugitive": "도망자",
    "marshal": "수사관",
    "hand_of": "{who}의 카드",
    "deck_sizes": "덱",
    "choose_hideout": "놓을 은신처",
    "choose_sprints": "아래에 놓을 도약 카드",
    "reach_info": "도달: {r}까지",
    "place_button": "놓기",
    "pass_button": "패스",
    "decline_button": "추가로 뽑지 않기",
    "draw_from": "뽑을 덱",
    "guess_button": "수사 시도",
    "step": "다음 수",
    "play_to_end": "끝까지 진행",
    "ai_thinking": "AI 차례…",
    "illegal": "허용되지 않는 수입니다: {reason}",
    "last_moves": "진행 기록",
    "since_your_move": "내 마지막 수 이후:",
    "last_move": "방금 둔 수:",
    "open_in_learning": "복기에서 열기",
    "new_match": "새 대전",
    "waiting_for_ai": "AI 차례입니다.",
    "your_turn": "내 차례",
    "you_opening": "은신처를 1~2개 놓으세요",
    "you_opening_two": "은신처를 2개 놓으세요",
    "you_place": "은신처를 놓거나 패스하세요",
    "you_bonus_draw": "추가로 뽑거나 넘어가세요",
    "guess_numbers_match": "수사할 숫자",
    "guess_number_match": "수사할 숫자",
    "learning_intro": "저장된 게임을 한 수씩 다시 보고, 각 수사 시도를 최선의 시도와 비교합니다.",
    "pick_game": "게임",
    "after_move_n": "{n}수 중 {i}수 후",
    "prev": "◀",
    "next": "▶",
    "grades": "수사 시도 평가",
    "grade_line": "{g}을(를) {p}로 시도했습니다; {b}은(는) {bp}였습니다.",
    "grade_best": "{g}을(를) {p}로 시도했습니다: 최선의 시도.",
    "grade_line_bot": "수사관이 {g}을(를) {p}로 시도했습니다; {b}은(는) {bp}였습니다.",
    "grade_best_bot": "수사관이 {g}을(를) {p}로 시도했습니다: 최선의 시도.",
    "no_guesses": "아직 수사 시도가 없습니다.",
    "tutorial_intro": "일곱 단계로 배우는 도망자.",
    "tut_next": "다음",
    "tut_prev": "이전",
    "tut_check": "확인",
    "tut_right": "정답!",
    "tut_wrong": "아쉽네요: {why}",
    "tut1_title": "1. 카드",
    "tut1_text": "은신처 카드 43장, 0~42. 0은 앞면으로 시작합니다. 도망자는 1, 2, 3, 42를 들고 1번 덱(4~14)에서 3장, 2번 덱(15~28)에서 2장을 뽑습니다. 3번 덱은 29~41. 홀수 카드는 발자국 1개, 짝수 카드는 2개.",
    "tut1_q": "17번 카드의 발자국은 몇 개?",
    "tut1_why": "17은 홀수: 발자국 1개.",
    "tut2_title": "3. 은신처 놓기",
    "tut2_text": "새 은신처는 이전 은신처보다 크고 3 이내여야 합니다. 아래에 뒷면으로 놓은 도약 카드의 발자국만큼 범위가 늘어납니다. 수사관은 도약 카드의 장수만 봅니다.",
    "tut2_q": "이전 은신처가 4입니다. 도약 카드 없이 놓을 수 있는 것은?",
    "tut2_why": "4보다 3 이내로 큰 5, 6, 7만 됩니다.",
    "tut3_title": "5. 수사 시도",
    "tut3_text": "수사관은 카드를 뽑은 뒤 숫자 하나 이상을 말합니다. 말한 숫자가 모두 뒷면 은신처일 때만 모두 공개되고, 도약 카드도 공개됩니다.",
    "tut3_q": "은신처 5와 9가 뒷면입니다. 수사관이 5와 8을 말하면?",
    "tut3_a1": "아무것도 공개되지 않음",
    "tut3_a2": "5",
    "tut3_a3": "5와 8",
    "tut3_why": "8은 은신처가 아니므로 아무것도 공개되지 않습니다.",
    "tut4_title": "6. 탈출과 마지막 추적",
    "tut4_text": "42를 놓으면 탈출입니다. 공개된 은신처 중 가장 큰 수가 30 이상이면 바로 승리, 아니면 수사관이 숫자를 하나씩 말합니다: 맞히면 계속, 처음 틀리면 도망자 승리, 모두 공개하면 체포.",
    "tut4_q": "42를 놓았고 공개된 가장 큰 은신처는 27입니다. 어떻게 되나요?",
    "tut4_a1": "바로 승리",
    "tut4_a2": "마지막 추적",
    "tut4_why": "27은 30보다 작으므로 마지막 추적이 시작됩니다.",
    "tut5_title": "7. 게임하기, 또는 실제 테이블에서 이 앱 쓰기",
    "tut5_text": "대전: 이 기기에서 하는 한 판 전체. AI를 상대로 수사관이나 도망자가 되거나, 두 사람이 기기를 넘겨 가며 하거나, AI끼리 두는 것을 볼 수 있습니다. 복기: 끝난 게임을 한 수씩 다시 보며 도망자가 실제로 어디 있었는지, 각 수사 시도가 최선과 어떻게 비교되는지, (도망자에게는) 각 은신처가 얼마나 드러났는지 봅니다. 도우미: 실제 테이블에서 일어나는 일을 순서대로 누르세요(도망자의 은신처는 도약 카드 장수, 패스와 덱; 내가 뽑은 카드; 수사 시도와 성공 시 위치와 도약 카드). 격자는 각 숫자가 뒷면 은신처일 확률을 보여 줍니다.",
    # assistant at a real table (issue 15)
    "cell_sprint": "도약",
    "legend_sprint": "점선 = 공개된 도약 카드",
    "more_candidates": "외 {n}개",
    "deck_cards": "덱 {d} · 덱에 {n}장 남음 · 내가 못 본 카드 {u}장",
    "deck_empty": "덱 {d} · 비었음",
    "draw_tip_deck": "추천: 덱 {d}",
    "last_entry": "입력 {i}: {what}",
    "no_entries_yet": "아직 입력이 없습니다: 도망자의 첫 은신처부터 입력하세요.",
    "fix_sprints": "입력 {i}에는 +{old}였지만 테이블에는 도약 카드가 {new}장 있습니다: +{new}(으)로 고치고 성공 저장",
    "fixed_sprints": "입력 {i}을(를) +{new}(으)로 고치고 성공을 저장했습니다.",
    "open_entry": "입력 {i} 열기",
    "editing": "입력 {i}: {what}",
    "close": "닫기",
    "edit_json": "JSON으로 고치기",
    "corr_place": "그 아래의 도약 카드 (맞는 장수를 누르세요)",
    "corr_escape": "42 아래의 도약 카드 (맞는 장수를 누르세요)",
    "corrected_to": "입력 {i}을(를) 고쳤습니다: {what}",
    "hit_of": "성공: {n}",
    "revealed_which": "공개된 카드",
    "hit_summary_line": "{x}: #{p}, {cards}",
    "no_sprint_cards": "도약 카드 없음",
    "hand_cannot_hit": "◆ {x}: 내 카드, 맞을 수 없음",
    "manhunt_zero": "{x}은(는) 0%입니다: 은신처일 수 없으므로 이 수사 시도로 마지막 추적이 끝납니다",
    "refreshed": "새로 고침: 다른 창이나 기기에서 이 게임이 바뀌었습니다.",
    "phone_title": "휴대폰에서 이 페이지 열기",
    "phone_scan": "휴대폰 카메라로 스캔하거나 주소를 입력하세요:",
    "phone_help": "휴대폰이 이 컴퓨터와 같은 Wi-Fi(네트워크)에 있어야 합니다. 휴대폰에서 열리지 않으면 이 컴퓨터의 방화벽에서 포트 {port}(으)로 들어오는 연결을 허용하세요.",
    "phone_local_only": "이 서버는 이 컴퓨터에서만 응답합니다 (server.address {address}). 휴대폰이 접속할 수 있도록 `--server.address 0.0.0.0`으로 시작하세요 (`make run`은 이미 네트워크에서 응답합니다).",
    "phone_no_network": "이 컴퓨터에 네트워크 주소가 없습니다: 휴대폰과 같은 Wi-Fi에 연결한 뒤 이 페이지를 새로 고치세요.",
}

STRINGS = {"en": EN, "ko": KO}

# issue 16: the match and Learning as a player meets them
EN.update({
    "match_moved_on": "This match moved on in another window or on another device: here it is as saved.",
    "saved_matches": "Saved matches",
    "list_you_vs": "You: {side} vs {bot}",
    "list_two_players": "Two players",
    "list_ai_ai": "AI vs AI: {m} vs {f}",
    "list_you_won": "you won",
    "list_you_lost": "you lost",
    "list_fugitive_won": "the Fugitive won",
    "list_marshal_won": "the Marshal won",
    "list_your_turn": "your turn",
    "list_in_play": "in play",
    "moves_one": "1 move",
    "moves_n": "{n} moves",
    "marshal_hand_size": "Marshal holds {n}",
    "ev_end_opening": "Fugitive: ends his first turn",
    "ev_decline_draw": "Fugitive: no extra draw",
    "bonus_draw_info": "After a pass you may draw one more card, only from deck {d}.",
    "forced_pass": "No card in your hand can follow {p}, whatever sprint cards you add: you must pass.",
    "guess_own_card": "{n}: in your hand, so not a hideout: this guess misses.",
    "own_cards_marked": "◆ your own cards: they cannot be hideouts.",
    "ai_turn": "{who} (AI) to move",
    "you_draw_two": "draw 2 cards, then guess",
    "you_draw_second": "draw your second card",
    "you_draw": "draw a card",
    "you_manhunt": "Manhunt: one number",
    "hideout_not_sprint": "{h} is the hideout: it cannot also be a sprint card",
    "coach_move_place_none": "He placed {h} without sprint cards",
    "continue_match": "Continue: {what}",
    "coach_hands_one": "exact: he knew her hand (she had drawn nothing yet, or no other cards were left)",
    # learning: grades of sets, what a guess gained
    "pick_game_prompt": "Choose a game",
    "grades_bot": "The Marshal's guesses, graded",
    "grade_single": "You guessed {g}: {p}; the best single number, {b}, had {bp}.",
    "grade_single_best": "You guessed {g}: {p}, the best single number then.",
    "grade_set": "You guessed {g}: {p} that all {k} were hideouts; the best {k} numbers, {b}, had {bp}.",
    "grade_set_best": "You guessed {g}: {p} that all {k} were hideouts, the best {k} numbers then.",
    "grade_single_bot": "The Marshal guessed {g}: {p}; the best single number, {b}, had {bp}.",
    "grade_single_best_bot": "The Marshal guessed {g}: {p}, the best single number then.",
    "grade_set_bot": "The Marshal guessed {g}: {p} that all {k} were hideouts; the best {k} numbers, {b}, had {bp}.",
    "grade_set_best_bot": "The Marshal guessed {g}: {p} that all {k} were hideouts, the best {k} numbers then.",
    "grade_searched": "(the best of the {n} sets searched)",
    "gain_hit": "It hit: {n} hideout(s) turned face up.",
    "gain_won": "It hit: the last {n} hideout(s) turned face up, and the game was won.",
    "gain_own": "It missed: {n} was a card of the Marshal's own hand, so it could not hit.",
    "gain_miss": "It missed, and so ruled out the histories in which it would have hit ({p} of them).",
    "gain_miss_zero": "It missed, as it had to: it could not hit.",
    # learning: hindsight
    "hindsight_title": "Where he really was",
    "hindsight_spot": "#{p} was {x}: she gave it {ph} there ({pn} anywhere); her most likely there: {b} ({bp}).",
    "hindsight_legend": "The row as it really was; on the grid (what the Marshal could know then), his face-down hideouts are outlined in green.",
    "hindsight_none": "No face-down hideout at this moment.",
    "hindsight_only_matches": "Where the Fugitive really was is known only for matches: the assistant records what the Marshal saw.",
    "hindsight_after_end": "Where the Fugitive really was is shown once the match is over.",
    "chart_title": "Her chance on his most exposed hideout, move by move",
    "chart_move": "move",
    "chart_exposed": "his most exposed hideout",
    "chart_best": "her most likely number",
    "chart_caption": "Where the two lines meet, her most likely number was one of his hideouts.",
    # learning: the Fugitive's coach
    "coach_title": "Coach for the Fugitive",
    "coach_intro": "At the end of each of his turns: how exposed each face-down hideout was, that is its chance in the Marshal's exact posterior, averaged over the hands she could hold as he saw it (her cards of a deck: any of its cards he had not seen); and the placement that would have hidden him best (the one whose most exposed hideout is the least exposed).",
    "coach_button": "Coach this game",
    "coach_computing": "Measuring each of his turns…",
    "coach_move_place": "He placed {h} with {s} sprint card(s)",
    "coach_move_escape": "He escaped (42) with {s} sprint card(s)",
    "coach_move_pass": "He passed",
    "coach_nothing_hidden": "nothing face down",
    "coach_hands_exact": "exact: averaged over all {n} hands she could hold",
    "coach_hands_sampled": "averaged over {k} of the {n} hands she could hold, drawn at random (standard error at most {se} points)",
    "coach_best": "Better: {h} with {s} sprint card(s), its most exposed hideout at {bp} instead of {p}.",
    "coach_best_instead_of_pass": "{h} with {s} sprint card(s) would have hidden him as well ({bp}, passing: {p}) and moved him on.",
    "coach_best_escape": "Better: the escape (42) with {s} sprint card(s) would have won at once.",
    "coach_good": "No placement would have hidden him better.",
    "coach_bluff_worked": "Bluff worked: {h} with {s} sprint cards was at {p}; with {f}, enough to reach it, it would have been at {pf}.",
    "coach_bluff_failed": "Bluff did not help: {h} with {s} sprint cards was at {p}; with {f}, enough to reach it, it would have been at {pf}.",
    # the tutorial: turns and draws, passing, the way to play
    "tut_turns_title": "2. Turns and draws",
    "tut_turns_text": "The Fugitive goes first. On his first turn he places 1 or 2 hideouts, with no draw and no pass. On the Marshal's first turn she draws 2 cards, one after the other, each from any deck (she sees the first before choosing the second deck), then guesses. From then on every turn starts with a draw of 1 card from any deck that has cards (which deck is public, the card is not): the Fugitive then places one hideout or passes, the Marshal guesses. When every deck is empty the draw is skipped.",
    "tut_turns_q": "How many cards does the Marshal draw on her first turn?",
    "tut_turns_why": "On her first turn she draws 2 cards, then guesses; later turns draw 1.",
    "tut_pass_title": "4. Passing",
    "tut_pass_text": "After his draw the Fugitive may pass instead of placing a hideout: he keeps his cards for a longer sprint later, but the Marshal gets another guess. When no card of his hand can follow the previous hideout, whatever sprint cards he adds, he must pass. (2nd edition option: after a pass he may draw one more card, only from the lowest-numbered deck that still has cards.)",
    "tut_pass_q": "The previous hideout is 9; he holds only 15 and 42. What does he do?",
    "tut_pass_a1": "He places 15",
    "tut_pass_a2": "He must pass",
    "tut_pass_why": "15 is 6 above 9 and he has no sprint card to reach it (42 is never a sprint card): he must pass.",
    "tut_play": "Play now: start a match",
    "tut_assistant": "Open the Assistant for a real table",
})
KO.update({
    "match_moved_on": "이 대전은 다른 창이나 기기에서 진행되었습니다. 저장된 상태를 보여 줍니다.",
    "saved_matches": "저장된 대전",
    "list_you_vs": "나: {side} 대 {bot}",
    "list_two_players": "2인",
    "list_ai_ai": "AI 대 AI: {m} 대 {f}",
    "list_you_won": "승리",
    "list_you_lost": "패배",
    "list_fugitive_won": "도망자 승리",
    "list_marshal_won": "수사관 승리",
    "list_your_turn": "내 차례",
    "list_in_play": "진행 중",
    "moves_one": "1수",
    "moves_n": "{n}수",
    "marshal_hand_size": "수사관 카드 {n}장",
    "ev_end_opening": "도망자: 첫 차례 끝",
    "ev_decline_draw": "도망자: 추가로 뽑지 않음",
    "bonus_draw_info": "패스했으므로 덱 {d}에서만 1장 더 뽑을 수 있습니다.",
    "forced_pass": "도약 카드를 어떻게 더해도 {p} 다음에 놓을 카드가 없습니다. 패스해야 합니다.",
    "guess_own_card": "{n}: 내 카드이므로 은신처가 아닙니다. 이 수사 시도는 실패합니다.",
    "own_cards_marked": "◆ 내 카드: 은신처일 수 없습니다.",
    "ai_turn": "{who} (AI) 차례",
    "you_draw_two": "2장을 뽑고 수사 시도",
    "you_draw_second": "두 번째 카드를 뽑으세요",
    "you_draw": "카드를 1장 뽑으세요",
    "you_manhunt": "마지막 추적: 숫자 하나",
    "hideout_not_sprint": "{h}은(는) 은신처이므로 도약 카드가 될 수 없습니다",
    "coach_move_place_none": "도약 카드 없이 {h}에 놓음",
    "continue_match": "이어 하기: {what}",
    "coach_hands_one": "정확한 값: 수사관의 카드를 알고 있었습니다 (아직 뽑지 않았거나 남은 카드가 없음)",
    "pick_game_prompt": "게임을 고르세요",
    "grades_bot": "수사관의 수사 시도 평가",
    "grade_single": "{g}을(를) 시도했습니다: {p}. 가장 좋은 숫자 {b}은(는) {bp}였습니다.",
    "grade_single_best": "{g}을(를) 시도했습니다: {p}, 그때 가장 좋은 숫자였습니다.",
    "grade_set": "{g}을(를) 시도했습니다: {k}개 모두 은신처일 확률 {p}. 가장 좋은 {k}개 {b}은(는) {bp}였습니다.",
    "grade_set_best": "{g}을(를) 시도했습니다: {k}개 모두 은신처일 확률 {p}, 그때 가장 좋은 {k}개였습니다.",
    "grade_single_bot": "수사관이 {g}을(를) 시도했습니다: {p}. 가장 좋은 숫자 {b}은(는) {bp}였습니다.",
    "grade_single_best_bot": "수사관이 {g}을(를) 시도했습니다: {p}, 그때 가장 좋은 숫자였습니다.",
    "grade_set_bot": "수사관이 {g}을(를) 시도했습니다: {k}개 모두 은신처일 확률 {p}. 가장 좋은 {k}개 {b}은(는) {bp}였습니다.",
    "grade_set_best_bot": "수사관이 {g}을(를) 시도했습니다: {k}개 모두 은신처일 확률 {p}, 그때 가장 좋은 {k}개였습니다.",
    "grade_searched": "(살펴본 {n}개 조합 중 최선)",
    "gain_hit": "성공: 은신처 {n}장이 공개되었습니다.",
    "gain_won": "성공: 마지막 은신처 {n}장이 공개되어 게임에서 이겼습니다.",
    "gain_own": "실패: {n}은(는) 수사관 자신의 카드라서 맞을 수 없었습니다.",
    "gain_miss": "실패: 맞았을 경우의 역사({p})가 배제되었습니다.",
    "gain_miss_zero": "실패: 맞을 수 없는 시도였습니다.",
    "hindsight_title": "도망자가 실제로 있던 곳",
    "hindsight_spot": "#{p}은(는) {x}였습니다: 그 자리에서 {ph} (어디든 {pn}); 그 자리의 가장 유력한 숫자: {b} ({bp}).",
    "hindsight_legend": "실제 은신처 줄입니다. 격자(그때 수사관이 알 수 있던 것)에서 도망자의 뒷면 은신처는 초록 테두리로 표시됩니다.",
    "hindsight_none": "지금은 뒷면 은신처가 없습니다.",
    "hindsight_only_matches": "도망자가 실제로 있던 곳은 대전에서만 알 수 있습니다. 도우미는 수사관이 본 것만 기록합니다.",
    "hindsight_after_end": "도망자가 실제로 있던 곳은 대전이 끝난 뒤에 보여 줍니다.",
    "chart_title": "가장 드러난 은신처에 대한 수사관의 확률 (수마다)",
    "chart_move": "수",
    "chart_exposed": "가장 드러난 은신처",
    "chart_best": "가장 유력한 숫자",
    "chart_caption": "두 선이 만나는 곳에서는 수사관의 가장 유력한 숫자가 도망자의 은신처였습니다.",
    "coach_title": "도망자 코치",
    "coach_intro": "도망자의 차례가 끝날 때마다: 각 뒷면 은신처가 얼마나 드러났는지(수사관의 정확한 사후 확률을, 도망자가 보기에 수사관이 가질 수 있던 카드 전체에 대해 평균한 값; 수사관이 한 덱에서 뽑은 카드는 도망자가 보지 못한 그 덱의 카드 중 어느 것이든 될 수 있음), 그리고 가장 잘 숨을 수 있었던 배치(가장 드러난 은신처가 가장 덜 드러나는 배치).",
    "coach_button": "이 게임 코치 받기",
    "coach_computing": "도망자의 각 차례를 계산하는 중…",
    "coach_move_place": "{h}에 도약 카드 {s}장으로 놓음",
    "coach_move_escape": "도약 카드 {s}장으로 탈출(42)",
    "coach_move_pass": "패스",
    "coach_nothing_hidden": "뒷면 은신처 없음",
    "coach_hands_exact": "정확한 값: 수사관이 가질 수 있던 카드 {n}가지 전체의 평균",
    "coach_hands_sampled": "수사관이 가질 수 있던 카드 {n}가지 중 무작위 {k}가지의 평균 (표준 오차 최대 {se}%p)",
    "coach_best": "더 나은 수: {h}에 도약 카드 {s}장, 가장 드러난 은신처 {p} 대신 {bp}.",
    "coach_best_instead_of_pass": "{h}에 도약 카드 {s}장으로 놓았다면 똑같이 숨으면서({bp}, 패스: {p}) 앞으로 나아갔습니다.",
    "coach_best_escape": "더 나은 수: 도약 카드 {s}장으로 탈출(42)하면 바로 이겼습니다.",
    "coach_good": "이보다 더 잘 숨는 배치는 없었습니다.",
    "coach_bluff_worked": "블러핑 성공: 도약 카드 {s}장으로 놓은 {h}은(는) {p}였습니다. 닿을 만큼만 {f}장을 썼다면 {pf}였습니다.",
    "coach_bluff_failed": "블러핑 효과 없음: 도약 카드 {s}장으로 놓은 {h}은(는) {p}였습니다. 닿을 만큼만 {f}장을 썼다면 {pf}였습니다.",
    "tut_turns_title": "2. 차례와 뽑기",
    "tut_turns_text": "도망자가 먼저 합니다. 첫 차례에는 뽑지 않고 은신처를 1장 또는 2장 놓으며 패스할 수 없습니다. 수사관은 첫 차례에 카드 2장을 하나씩, 각각 아무 덱에서나 뽑고(첫 장을 본 뒤 두 번째 덱을 고릅니다) 수사 시도를 합니다. 그 뒤로는 모든 차례가 카드가 남은 아무 덱에서 1장을 뽑으며 시작합니다(어느 덱인지는 공개, 카드는 비공개). 도망자는 은신처를 1장 놓거나 패스하고, 수사관은 수사 시도를 합니다. 모든 덱이 비면 뽑기를 건너뜁니다.",
    "tut_turns_q": "수사관은 첫 차례에 카드를 몇 장 뽑나요?",
    "tut_turns_why": "첫 차례에는 2장을 뽑고 수사 시도를 합니다. 그 뒤로는 1장씩 뽑습니다.",
    "tut_pass_title": "4. 패스",
    "tut_pass_text": "도망자는 뽑은 뒤 은신처를 놓는 대신 패스할 수 있습니다. 나중에 더 멀리 도약하도록 카드를 모으지만, 수사관은 수사 시도를 한 번 더 합니다. 도약 카드를 어떻게 더해도 이전 은신처 다음에 놓을 카드가 없으면 반드시 패스해야 합니다. (2판 규칙: 패스한 뒤 카드가 남은 가장 낮은 번호의 덱에서만 1장을 더 뽑을 수 있습니다.)",
    "tut_pass_q": "이전 은신처는 9이고 도망자는 15와 42만 가지고 있습니다. 어떻게 하나요?",
    "tut_pass_a1": "15를 놓는다",
    "tut_pass_a2": "패스해야 한다",
    "tut_pass_why": "15는 9보다 6 크고, 닿게 해 줄 도약 카드가 없습니다(42는 도약 카드가 될 수 없음). 패스해야 합니다.",
    "tut_play": "지금 하기: 대전 시작",
    "tut_assistant": "실제 테이블용 도우미 열기",
})

#: English of a refusal inside the app, where the entries are numbered from 1 as in
#: the list of entries: "entry 4: ..." for the CLI's "event 3: ..."
EN["entry_reason"] = "entry {n}: {reason}"


def _english_coded() -> dict[str, str]:
    """The modules' English templates of coded messages under the app's keys
    (``rule_<code>``, ``format_<code>``, ``move_<code>``, ``store_<code>``).

    The app's English reads like the CLI's, with one difference: an event index is
    shown as the entry number, counted from 1 like the app's list of entries (as the
    Korean strings do), and called an entry.
    """
    if _EN_CODED:
        return _EN_CODED
    from engine.errors import MOVE_MESSAGES, MOVE_PHRASES
    from engine.record import FORMAT_MESSAGES, FORMAT_PHRASES
    from notepad.store import STORE_MESSAGES
    from notepad.validator import MESSAGES, PHRASES, WARNINGS

    for prefix, tables in (("rule_", (MESSAGES, PHRASES, WARNINGS)), ("format_", (FORMAT_MESSAGES, FORMAT_PHRASES)),
                           ("move_", (MOVE_MESSAGES, MOVE_PHRASES)), ("store_", (STORE_MESSAGES,))):
        for table in tables:
            for code, template in table.items():
                _EN_CODED[f"{prefix}{code}"] = template.replace("(event {event})", "(entry {event})")
    return _EN_CODED


_EN_CODED: dict[str, str] = {}

_current = {"lang": DEFAULT}


def _session():
    """Streamlit's session state when running inside a page, else None."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        if get_script_run_ctx(suppress_warning=True) is None:
            return None
        import streamlit as st

        return st.session_state
    except Exception:  # pragma: no cover - outside streamlit
        return None


def set_lang(lang: str) -> None:
    """The language of this session (each browser session has its own)."""
    lang = lang if lang in STRINGS else DEFAULT
    ss = _session()
    if ss is not None:
        ss["lang"] = lang
    else:
        _current["lang"] = lang


def get_lang() -> str:
    ss = _session()
    if ss is not None:
        return ss.get("lang", DEFAULT)
    return _current["lang"]


def t(key: str, /, **kw) -> str:
    """The string ``key`` in the current language, formatted with ``kw``.

    ``key`` is positional-only, so a message argument may be named ``key`` too (the
    record reader's "unknown field {key!r}").
    """
    text = STRINGS.get(get_lang(), EN).get(key) or EN.get(key) or _english_coded().get(key) or key
    if kw:
        try:
            return text.format(**kw)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def _has_coded_text(reason: object, prefix: str) -> bool:
    """Whether the current language says this coded message itself (``<prefix><code>``)."""
    code = getattr(reason, "code", None)
    if not code:
        return False
    table, key = STRINGS.get(get_lang(), EN), f"{prefix}{code}"
    return key in table or (table is EN and key in _english_coded())


def _coded_text(reason: object, prefix: str) -> str:
    """A coded message (``code`` and ``params``) in the current language, else its English.

    Arguments that are themselves coded parts of the message are said the same way,
    and ``event`` (a 0-based event index) is shown as the entry number, counted from
    1 like the app's list of entries.
    """
    if not _has_coded_text(reason, prefix):
        return str(reason)
    args = {}
    for name, value in dict(getattr(reason, "params", None) or {}).items():
        if getattr(value, "code", None):
            value = _coded_text(value, prefix)
        elif name == "event" and isinstance(value, int):
            value += 1
        args[name] = value
    return t(f"{prefix}{reason.code}", **args)


def rule_text(reason: object) -> str:
    """A message of the notepad validator in the current language.

    The validator writes English and attaches a ``code`` and ``params``
    (``notepad.validator.RuleText``); ``rule_<code>`` is the template in another
    language, and in English the validator's own (see :func:`_english_coded`). A
    plain string has no code: it is kept as it is.
    """
    return _coded_text(reason, "rule_")


def format_text(reason: object) -> str:
    """A format fault of the record reader in the current language.

    The same scheme as :func:`rule_text`: ``engine.record.FormatText`` carries the
    code and params, and ``format_<code>`` is the template in another language.
    """
    return _coded_text(reason, "format_")


def move_text(reason: object) -> str:
    """The reason of an illegal move (``IllegalMove.reason``) in the current language.

    The same scheme as :func:`rule_text`: ``engine.errors.MoveText`` carries the code
    and params, and ``move_<code>`` is the template in another language.
    """
    return _coded_text(reason, "move_")


def error_text(exc: BaseException) -> str:
    """A refusal of the record reader, the validator or the store, or an illegal move
    of the engine, in the current language.

    A store refusal is said from ``store_<code>``; a refused record inside it
    (``params["error"]``, a RecordFormatError or RecordRuleError) is said the same
    way, with its event index as the entry number. In English the templates are the
    modules' own, so the page reads like the CLI except that entries are numbered
    from 1, as in the page's list of entries (:func:`_english_coded`); anything
    without a code is ``str(exc)``.
    """
    from engine.errors import IllegalMove
    from engine.record import RecordFormatError
    from notepad.store import StoreError
    from notepad.validator import RecordRuleError

    if isinstance(exc, IllegalMove):
        return move_text(exc.reason)
    if isinstance(exc, StoreError):
        if not _has_coded_text(exc, "store_"):
            return str(exc)
        args = {k: error_text(v) if isinstance(v, BaseException) else v for k, v in exc.params.items()}
        return t(f"store_{exc.code}", **args)
    if isinstance(exc, RecordFormatError):
        prefix = "format_"
    elif isinstance(exc, RecordRuleError):
        prefix = "rule_"
    else:
        return str(exc)
    if not _has_coded_text(exc.reason, prefix):
        return str(exc)
    reason = _coded_text(exc.reason, prefix)
    if exc.index is not None:
        reason = t("entry_reason", n=exc.index + 1, reason=reason)
    return reason
