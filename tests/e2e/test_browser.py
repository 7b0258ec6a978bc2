"""The browser app in real Chromium (Debian's /usr/bin/chromium, driven by Playwright):
two people and a computer player play a round through the UI, a refresh keeps the seat,
a phone-sized screen works, the language follows the browser (Hebrew right to left), a
player who closes the tab is stood in for and takes the seat back, the lobby lists a table
that a second browser joins, and a whole game in Spanish shows no English word (the hint,
a refused selection's reason, the round's end, the score sheet), downloads as a record
``yaniv check`` accepts and replays step by step.

Screenshots for the README: ``YANIV_SCREENSHOTS=1 pytest tests/e2e`` writes
docs/web-table.png and docs/web-phone.png.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DOCS = Path(__file__).parent.parent.parent / "docs"
SHOTS = os.environ.get("YANIV_SCREENSHOTS") == "1"

if not Path(CHROMIUM).exists():
    pytest.skip("needs Debian's chromium (apt-get install -y chromium)", allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from tests.web.server import Server  # noqa: E402

STATE = """() => { const s = window.yanivState; if (!s.view) return null;
  return {seat: s.seat, version: s.version, current: s.view.current, phase: s.view.phase,
          legal: s.view.legal, hand: s.view.hand, pending: s.pending.size, round: s.view.round,
          over: s.view.game_over}; }"""

VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(card: str) -> int:
    return 0 if card == "JK" else VALUE.get(card[:-1]) or int(card[:-1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("e2e") / "yaniv.db").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_page(browser: Any, errors: list[str], **context: Any) -> Any:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def create_table(page: Any, server: Server, name: str, players: int, computers: int, **knobs: str) -> str:
    page.goto(server.url + "/")
    page.fill("#name", name)
    page.select_option("#players", str(players))
    page.select_option("#computers", str(computers))
    page.select_option("#level", "beginner")
    for field, text in knobs.items():
        page.fill(f"#{field}", text)
    page.click("#create-btn")
    page.wait_for_selector("#lobby")
    link: str = page.input_value("#invite")
    return link


def ui_turn(page: Any, keyboard: bool = False, seen: int | None = None) -> bool:
    """Play one step of this page's seat through the UI, if it is its turn; with `seen`, only
    if the table is still at that version (a caller that looked at the position first must
    not have a newer turn played behind its back: the bot moves between two reads)."""
    st = page.evaluate(STATE)
    if not st or st["phase"] == "round_over" or st["current"] != st["seat"] or st["pending"]:
        return False
    if seen is not None and st["version"] != seen:
        return False
    legal = st["legal"]
    if any(a["type"] == "yaniv" for a in legal):
        page.click("#yaniv-btn")
    elif st["phase"] in ("turn_start", "after_draw"):
        discards = [a for a in legal if a["type"] == "discard"]
        best = max(discards, key=lambda a: (sum(value(c) for c in a["cards"]), len(a["cards"])))
        used: set[int] = set()
        for card in reversed(best["cards"]):  # picked in any order: the server lays them
            i = next(i for i, c in enumerate(st["hand"]) if c == card and i not in used)
            used.add(i)
            if keyboard and i < 9:
                page.keyboard.press(str(i + 1))
            else:
                page.click(f'[data-key="hand-{i}"]')
        if keyboard:
            page.keyboard.press("d")
        else:
            page.click("#discard-btn")
    elif any(a["type"] == "draw" for a in legal):
        if keyboard:
            page.keyboard.press("s")
        else:
            page.click("#stock")
    else:
        take = next(a for a in legal if a["type"] == "take")
        page.click(f'.previous button[data-card="{take["card"]}"]')
    page.wait_for_function("v => window.yanivState.version !== v", arg=st["version"])
    return True


def play_round(pages: list[Any], shot: Any = None) -> None:
    turns = 0
    for _ in range(3000):
        if all(p.evaluate(STATE)["phase"] == "round_over" for p in pages):
            return
        moved = False
        for p in pages:
            moved |= ui_turn(p, keyboard=turns == 1)
            turns += moved
            if shot is not None and turns == 6:
                shot()
                shot = None
        if not moved:
            pages[0].wait_for_timeout(20)
    raise AssertionError("the round did not end")


def test_two_people_and_a_bot_play_a_round(server: Server, browser: Any) -> None:
    errors: list[str] = []
    ann = new_page(browser, errors, viewport={"width": 1280, "height": 800}, locale="en-GB")
    link = create_table(ann, server, "Ann", 3, 1, threshold="9")
    ben = new_page(browser, errors, viewport={"width": 1100, "height": 800}, locale="en-US")
    ben.goto(link)
    ben.fill("#name", "Ben")
    ben.click("#join-btn")
    ben.wait_for_selector("#lobby")
    ann.wait_for_selector(".seats li:has-text('Ben')")
    assert "computer" in ann.inner_text(".seats")
    ann.click("#start-btn")
    for p in (ann, ben):
        p.wait_for_selector(".hand .card")
        assert p.locator(".hand .card").count() == 5
        assert p.locator(".opponents .player").count() == 2
    side = ann.text_content(".side") or ""
    assert "Rules: Standard, changed" in side and "with 9 points or less" in side

    def shot() -> None:
        if SHOTS:
            ann.screenshot(path=str(DOCS / "web-table.png"))

    play_round([ann, ben], shot)
    for p in (ann, ben):
        p.wait_for_selector("#round-title")
        text = p.inner_text(".result")
        assert "Round 1 is over" in text or "Game over" in text
        assert p.locator(".result tbody tr").count() == 3
        assert "Moves" in p.inner_text(".side")
    log = ann.inner_text("#log")
    assert "Round 1: " in log and ("calls Yaniv" in log) and "Showdown" in log
    # next round: both press the button, a new deal arrives
    ann.click("#next-btn")
    ann.wait_for_selector("text=Waiting for the others")
    ben.keyboard.press("n")
    for p in (ann, ben):
        p.wait_for_function("() => window.yanivState.view && window.yanivState.view.round === 2")
    assert not errors, errors


def test_refresh_keeps_the_seat(server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, viewport={"width": 1280, "height": 800})
    create_table(page, server, "Cleo", 3, 2)
    page.click("#start-btn")
    page.wait_for_selector(".hand .card")
    for _ in range(3):
        ui_turn(page)
        page.wait_for_function(
            "() => { const s = window.yanivState; return s.view.current === s.seat "
            "|| s.view.phase === 'round_over'; }"
        )
    before = page.evaluate(STATE)
    page.reload()
    page.wait_for_selector(".hand .card")
    after = page.evaluate(STATE)
    assert after["seat"] == before["seat"] == 0
    assert after["hand"] == before["hand"] and after["version"] == before["version"]
    assert "Cleo" in page.inner_text(".me")
    assert page.locator("#log li").count() >= 1
    ui_turn(page)
    assert not errors, errors


def test_phone_viewport_and_languages(server: Server, browser: Any) -> None:
    errors: list[str] = []
    phone = new_page(
        browser,
        errors,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="de-DE",
    )
    create_table(phone, server, "Dana", 4, 3)
    assert phone.inner_text("#start-btn") == "Spiel starten"
    phone.click("#start-btn")
    phone.wait_for_selector(".hand .card")
    for _ in range(4):
        ui_turn(phone)
        phone.wait_for_function(
            "() => { const s = window.yanivState; return s.view.current === s.seat "
            "|| s.view.phase === 'round_over'; }"
        )
    assert phone.inner_text("#discard-btn") == "Abwerfen"
    wide = phone.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, f"the page is {wide}px wide on a 390px screen"
    box = phone.locator(".hand").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    if SHOTS:
        phone.select_option("#lang", "en")
        phone.wait_for_timeout(100)
        phone.screenshot(path=str(DOCS / "web-phone.png"), full_page=True)
    for code, word in (
        ("fi", "Heitä"),
        ("sl", "Odvrzi"),
        ("es", "Descartar"),
        ("he", "לזרוק"),
        ("en", "Discard"),
    ):
        phone.select_option("#lang", code)
        assert phone.inner_text("#discard-btn") == word
        # Hebrew reads right to left: the page says so, and still fits the phone
        assert phone.evaluate("() => document.documentElement.dir") == ("rtl" if code == "he" else "ltr")
        if code == "he":
            assert phone.evaluate("() => document.documentElement.lang") == "he"
            wide = phone.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= 390, f"the Hebrew page is {wide}px wide on a 390px screen"
            box = phone.locator(".hand").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert not errors, errors


def test_a_player_who_closes_the_tab_is_stood_in_for_and_comes_back(server: Server, browser: Any) -> None:
    errors: list[str] = []
    ann = new_page(browser, errors, viewport={"width": 1280, "height": 800}, locale="en-GB")
    link = create_table(ann, server, "Ann", 2, 0, turn="5")
    ben = new_page(browser, errors, viewport={"width": 1100, "height": 800}, locale="en-US")
    ben.goto(link)
    ben.fill("#name", "Ben")
    ben.click("#join-btn")
    ben.wait_for_selector("#lobby")
    ann.wait_for_selector(".seats li:has-text('Ben')")
    assert "5 s per move" in ann.inner_text("#lobby")
    ann.click("#start-btn")
    ann.wait_for_selector(".hand .card")
    ben.wait_for_selector(".hand .card")
    for _ in range(20):  # Ann plays until it is Ben's turn
        st = ann.evaluate(STATE)
        if st["current"] == 1 and st["phase"] != "round_over":
            break
        ui_turn(ann)
        ann.wait_for_timeout(100)
    assert ann.evaluate(STATE)["current"] == 1
    ann.wait_for_selector(".player[data-seat='1'] .countdown")  # everyone sees the clock run
    context = ben.context
    ben.close()  # Ben closes the tab on his turn
    ann.wait_for_selector("#log li.ev-timeout", timeout=15000)
    assert "Ben ran out of time" in ann.inner_text("#log")
    ann.wait_for_selector(".player[data-seat='1'] .badges:has-text('bot plays for now')")
    back = context.new_page()
    back.set_default_timeout(20000)
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.goto(link)
    back.wait_for_selector(".hand .card")
    assert back.evaluate(STATE)["seat"] == 1
    ann.wait_for_function("() => !window.yanivState.table.seats[1].stand_in")
    assert not errors, errors


def test_the_lobby_lists_a_table_and_a_second_browser_joins_from_it(server: Server, browser: Any) -> None:
    errors: list[str] = []
    ann = new_page(browser, errors, viewport={"width": 1280, "height": 800}, locale="en-GB")
    ann.goto(server.url + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    ann.select_option("#computers", "0")
    ann.check("#public")
    ann.click("#create-btn")
    ann.wait_for_selector("#lobby")
    table = ann.input_value("#invite").rsplit("/", 1)[1]
    assert "listed in the open tables" in ann.inner_text("#lobby")
    ben = new_page(browser, errors, viewport={"width": 390, "height": 844}, is_mobile=True, locale="es-ES")
    ben.goto(server.url + "/lobby")
    ben.fill("#lobby-name", "Ben")
    ben.wait_for_selector(f".open-table[data-table='{table}']")
    assert "1 de 3" not in ben.inner_text(f".open-table[data-table='{table}']")  # two of three are free
    assert "2 de 3 asientos libres" in ben.inner_text(f".open-table[data-table='{table}']")
    ben.click(f".sit-btn[data-table='{table}']")
    ben.wait_for_selector("#lobby")
    assert ben.evaluate("() => window.yanivState.seat") == 1
    ann.wait_for_selector(".seats li:has-text('Ben')")
    # the host's seat controls: a computer on the free seat, then off again; Ben sent away
    ann.click("[data-add-bot='2']")
    ann.wait_for_selector("[data-remove-bot='2']")
    ann.click("[data-remove-bot='2']")
    ann.wait_for_selector("[data-add-bot='2']")
    ann.click("[data-kick='1']")
    ben.wait_for_selector("#bye")
    ann.wait_for_selector("[data-add-bot='1']")
    assert not errors, errors


ENGLISH_WORDS = """() => import('/static/i18n.js').then((m) => {
  const words = (text) => (text.match(/[A-Za-z]{4,}/g) || []).map((w) => w.toLowerCase());
  const other = new Set(Object.values(m.ALL_TEXT.es).flatMap(words));
  const english = new Set(Object.values(m.ALL_TEXT.en).flatMap(words).filter((w) => !other.has(w)));
  return [...english];
})"""


def assert_no_english(page: Any, english: set[str], where: str) -> None:
    """The page's visible text holds no word of the English UI that Spanish does not use too."""
    text = page.inner_text("body")
    table = page.evaluate("() => window.yanivState.tableId")
    if table:
        text = text.replace(table, " ")
    found = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)} & english
    assert not found, f"English words {sorted(found)} on the {where}: {text[:3000]}"


def test_a_game_in_spanish_shows_no_english_word_then_replays(server: Server, browser: Any) -> None:
    """Issue 16: every word in the player's language, in play and after (here Spanish), and the
    finished game's history steps through in the browser; the record downloads and checks."""
    errors: list[str] = []
    page = new_page(browser, errors, viewport={"width": 1280, "height": 900}, locale="es-ES")
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    english = set(page.evaluate(ENGLISH_WORDS))
    assert {"discard", "round", "players", "rules"} <= english
    page.select_option("#preset", "finnish")
    page.wait_for_selector("#preset-changes")
    assert "Yaniv con 5 puntos o menos" in page.inner_text("#preset-info")
    assert page.locator("#players option").count() == 7  # the Finnish rules: 2 to 8 players
    assert_no_english(page, english, "create page")
    page.select_option("#preset", "standard")
    page.wait_for_selector("#preset-info")
    link = create_table(page, server, "Lola", 2, 1, threshold="9", limit="25")
    assert_no_english(page, english, "lobby")
    page.click("#start-btn")
    page.wait_for_selector(".hand .card")
    checked_hint = checked_why = False
    for _ in range(1500):
        st = page.evaluate(STATE)
        if st["over"]:
            break
        if st["phase"] == "round_over":
            page.wait_for_selector("#round-title")
            assert_no_english(page, english, "round's end")
            page.click("#close-result")  # the reveal is dismissed: the board shows the new totals
            page.wait_for_selector("#round-title", state="detached")
            totals = page.evaluate("() => window.yanivState.view.result.totals")
            assert f"total {totals[0]}" in page.inner_text(".me .who")
            assert_no_english(page, english, "board after the round")
            page.click("#result-btn")
            page.click("#next-btn")
            page.wait_for_function("r => window.yanivState.view.round !== r", arg=st["round"])
            continue
        mine = st["current"] == st["seat"] and not st["pending"]
        if mine and st["phase"] == "turn_start" and not checked_hint:
            page.click("#hint-btn")
            page.wait_for_selector("#hint")
            assert page.inner_text("#hint").startswith("Pista")
            checked_hint = True
            page.evaluate("() => { window.yanivState.selected.clear(); }")
        if mine and st["phase"] == "turn_start" and not checked_why:
            legal = {tuple(sorted(a["cards"])) for a in st["legal"] if a["type"] == "discard"}
            hand = st["hand"]
            pair = next(
                ((i, j) for i in range(len(hand)) for j in range(i + 1, len(hand))
                 if tuple(sorted((hand[i], hand[j]))) not in legal),
                None,
            )  # fmt: skip
            if pair is not None:
                for i in pair:
                    page.click(f'[data-key="hand-{i}"]')
                page.wait_for_selector("#why")
                assert "no es un descarte válido" in page.inner_text("#why")
                assert page.is_disabled("#discard-btn")
                assert_no_english(page, english, "table with a refused selection")
                for i in pair:
                    page.click(f'[data-key="hand-{i}"]')
                checked_why = True
        if not ui_turn(page, seen=st["version"]):
            page.wait_for_timeout(30)
    assert page.evaluate(STATE)["over"], "the game did not end"
    assert checked_hint and checked_why
    page.wait_for_selector("#round-title")
    page.click("#close-result")
    page.wait_for_selector("#after")
    assert page.locator("#sheet tbody tr").count() >= 1
    assert_no_english(page, english, "finished game")
    table = link.rsplit("/", 1)[1]
    record = page.request.get(f"{server.url}/api/tables/{table}/record")
    assert record.ok
    from yaniv.record import check, read_record

    lines = record.text().splitlines()
    assert check(lines).over  # the download is a record `yaniv check` accepts
    # the history: step by step through the finished game
    page.click("#history-link")
    page.wait_for_selector("#replay")
    steps = len(read_record(lines)) - 1
    assert page.inner_text("#step-no") == f"paso 1 de {steps}"
    first = page.inner_text("#narration")
    assert first.startswith("Ronda 1")
    assert page.locator("#replay .player").count() == 2
    assert page.locator("#replay .player[data-seat='0'] .card").count() == 5
    page.click("#step-next")
    assert page.inner_text("#step-no") == f"paso 2 de {steps}"
    assert page.inner_text("#narration") != first
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#narration") == first
    page.keyboard.press("End")
    assert page.inner_text("#step-no") == f"paso {steps} de {steps}"
    assert page.inner_text("#narration").startswith("Fin: gana")
    assert page.is_disabled("#step-next")
    assert_no_english(page, english, "history")
    assert not errors, errors
