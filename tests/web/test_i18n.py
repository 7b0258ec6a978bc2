"""Every word of the browser app in the player's language (issue 16): English, German, Finnish,
Slovenian, Spanish and Hebrew hold the same keys with the same placeholders, no English text stands in
another language (but for a short list of words that are the same there), every key the page
asks for exists, and the engine's reasons, the server's error codes, the presets and the
levels all have their words. Read with node from ``static/i18n.js`` itself."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from yaniv.bots import LEVELS
from yaniv.cards import parse_cards
from yaniv.errors import IllegalActionError
from yaniv.game import Game
from yaniv.rules import PRESETS, Rules
from yaniv.state import explain_bad_discard

STATIC = Path(__file__).parent.parent.parent / "src" / "yaniv" / "web" / "static"
WEB = STATIC.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node to read the page's modules")
LANGS = ("en", "de", "fi", "sl", "es", "he")

SAME_EVERYWHERE = {"title", "yaniv", "asefBtn", "secondsLeft"}
"""The game's name, its two calls (said as they are in every language) and "{n} s" (the SI unit)."""
SAME_IN = {
    "de": {"joker", "preset_standard", "preset_jdross"},  # "Joker", "Standard": German words too; a name
    "sl": {"joker"},  # "Joker" in Slovenian
    "es": {"total", "totalCol"},  # "total" is Spanish
}


def node(script: str) -> Any:
    assert NODE is not None
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", script], cwd=STATIC, capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def text() -> dict[str, dict[str, str]]:
    got: dict[str, dict[str, str]] = node(
        "import('./i18n.js').then(m => console.log(JSON.stringify(m.ALL_TEXT)))"
    )
    return got


def placeholders(value: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", value))


def test_every_language_has_every_key_with_the_same_placeholders(text: dict[str, dict[str, str]]) -> None:
    assert set(text) == set(LANGS)
    english = text["en"]
    for lang in LANGS:
        assert set(text[lang]) == set(english), (lang, set(english) ^ set(text[lang]))
        for key, value in text[lang].items():
            assert isinstance(value, str) and value.strip(), (lang, key)
            assert placeholders(value) == placeholders(english[key]), (lang, key, value)


def test_no_english_text_in_another_language(text: dict[str, dict[str, str]]) -> None:
    english = text["en"]
    for lang in LANGS[1:]:
        same = {k for k, v in text[lang].items() if v == english[k]}
        assert same <= SAME_EVERYWHERE | SAME_IN.get(lang, set()), (lang, same)


def test_every_key_the_page_asks_for_exists(text: dict[str, dict[str, str]]) -> None:
    english = text["en"]
    source = "\n".join((STATIC / f).read_text(encoding="utf-8") for f in ("app.js", "cards.js", "i18n.js"))
    asked = set(re.findall(r"""\bt\(\s*["'](\w+)["']""", source))
    assert len(asked) > 100
    assert asked - set(english) == set()
    # the keys made at run time: levels, presets, the server's error codes, ranks and suits
    for level in LEVELS:
        assert level in english
    for name in PRESETS:
        assert f"preset_{name}" in english, name
    codes = set(re.findall(r"""ProtocolError\(\s*["'](\w+)["']""", _web_source()))
    codes |= set(re.findall(r"""error\(\s*["'](\w+)["']""", _web_source()))
    codes |= set(re.findall(r""""code": "(\w+)\"""", _web_source()))
    assert {"illegal", "stale", "not_host", "rate_limited"} <= codes
    for code in codes:
        assert f"err_{code}" in english, code
    for part in ("rank_A", "rank_J", "rank_Q", "rank_K", "suit_S", "suit_H", "suit_D", "suit_C"):
        assert part in english


def _web_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in WEB.glob("*.py"))


def engine_reasons() -> list[str]:
    """Real reasons of the engine (S7 discards, S10 Yaniv, turns): its own words, not copies."""
    standard = Rules.from_spec("standard")
    strict = Rules.from_spec("slovenian-yanef")  # sets of 3 or more, no runs with a king
    gaps = Rules.from_spec("standard(jokers_in_runs=gaps_only)")
    reasons = [
        explain_bad_discard(_phys(cards), rules)
        for cards, rules in (
            ("JK JK", standard),  # jokers alone
            ("7H 7S JK", standard),  # a joker in a set
            ("7H 7S", strict),  # a set of two where three are needed
            ("7H 8S", standard),  # neither one rank nor one suit
            ("7H 8H", standard),  # a run of two
            ("JK 3H 4H", gaps),  # a joker at the end of a run
            ("JH QH KH", strict),  # a run with a king
            ("9H 8H 7H", standard),  # a run laid downwards
            ("QH KH AH", standard),  # the ace is low
            ("2H 5H 9H", standard),  # not consecutive
        )
    ]
    game = Game("standard(yaniv_threshold=0)", players=2, seed=3, names=["Ann", "Ben"])
    state = game.round
    me = state.current
    mine = {str(c) for c in state.hand(me)}
    absent = next(c for c in ("2S", "3S", "4S", "5S", "6S", "7S") if c not in mine)
    discarded = state.copy()
    discarded.apply(me, f"discard {next(iter(mine))}")
    taken = {str(c) for c in discarded.takeable()}
    untakeable = next(c for c in ("2H", "3H", "4H", "5H", "6H", "7H") if c not in taken)
    tries = [
        (state, 1 - me, "draw"),  # not your turn
        (state, me, "yaniv"),  # the hand is worth more than 0
        (state, me, "draw"),  # discard first
        (state, me, f"discard {absent}"),  # a card not held
        (state, me, "swap 5H"),  # no joker exchange under these rules
        (state, me, "slap 5H"),  # no slap under these rules
        (discarded, me, "asef"),  # no Asef under these rules
        (discarded, me, f"take {untakeable}"),  # not a card of the previous discard
        (discarded, me, "discard 5H"),  # discarded already
    ]
    for where, seat, action in tries:
        try:
            where.copy().apply(seat, action)
        except IllegalActionError as e:
            reasons.append(str(e))
        else:
            raise AssertionError(f"{action} by seat {seat} was legal")
    return reasons


def _phys(cards: str) -> list[int]:
    # one physical card per named card (two jokers: the deck's two)
    out: list[int] = []
    jokers = 0
    for card in parse_cards(cards):
        idx = int(card)
        if str(card) == "JK":
            idx += jokers
            jokers += 1
        out.append(idx)
    return out


@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_engines_reasons_are_translated(lang: str, text: dict[str, dict[str, str]]) -> None:
    reasons = engine_reasons()
    assert len(reasons) == 19
    script = (
        "import('./i18n.js').then(m => { m.setLanguage(LANG);"
        " console.log(JSON.stringify(REASONS.map(m.engineText))); })"
    )
    got = node(script.replace("LANG", json.dumps(lang)).replace("REASONS", json.dumps(reasons)))
    generic = text[lang]["err_illegal"]
    for reason, said in zip(reasons, got, strict=True):
        assert said != generic, f"no words in {lang} for the engine's {reason!r}"
        assert said != reason


def test_server_error_codes_and_rest_answers_are_translated(text: dict[str, dict[str, str]]) -> None:
    got = node(
        "import('./i18n.js').then(m => { m.setLanguage('es'); console.log(JSON.stringify(["
        "m.serverError({code: 'stale', message: 'the game has moved on'}),"
        "m.serverError({code: 'not_host', message: 'only the host starts the game'}),"
        "m.restError(409, {detail: 'someone at this table is already called Ann'}),"
        "m.restError(422, {detail: 'these rules allow 2 to 5 players, not 9'}),"
        "m.restError(422, {detail: [{msg: 'Field required'}]}),"
        "m.presetName('finnish'), m.presetName('standard(score_limit=100)')])); })"
    )
    es = text["es"]
    assert got[0] == es["err_stale"] and got[1] == es["err_not_host"]
    assert got[2] == "Alguien en esta mesa ya se llama Ann."
    assert got[3] == "Estas reglas admiten de 2 a 5 jugadores, no 9."
    assert got[4] == es["rest_422"]
    assert got[5] == "Finlandesa" and got[6] == "standard(score_limit=100)"


def test_rules_in_words_follow_the_knobs(text: dict[str, dict[str, str]]) -> None:
    finnish = PRESETS["finnish"].to_dict()
    standard = PRESETS["standard"].to_dict()
    got = node(
        "import('./i18n.js').then(m => { m.setLanguage('de'); console.log(JSON.stringify("
        f"[m.rulesLines({json.dumps(finnish)}),"
        f" m.presetChanges({json.dumps(finnish)}, {json.dumps(standard)}),"
        f" m.presetChanges({json.dumps(standard)}, {json.dumps(standard)})])); }})"
    )
    lines, changes, none = got
    assert "Yaniv darf man mit 5 Punkten oder weniger sagen." in lines
    assert "Ein Yaniv außer der Reihe kostet 30 Punkte." in changes
    assert not any("Stapel" in line and "Abwerfen" in line for line in changes)  # the pickup did not change
    assert none == []
