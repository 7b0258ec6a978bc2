"""The worked examples of the four source texts (seeds/000–003), replayed on the engine."""

from __future__ import annotations

from yaniv import Game, Rules, hand_value

from .helpers import assert_illegal, call, hand, kind_of, pile, state, takeable

# ----------------------------------------------------------------------------- 000 German


def test_example_000_runs_and_sets_named_in_the_text() -> None:
    # «B-D-K oder 9-10-B» and «2x B, 2x 10, 3x9»
    assert kind_of("JC QC KC", "german-wiki") == "run"
    assert kind_of("9D 10D JD", "german-wiki") == "run"
    assert kind_of("JH JS", "german-wiki") == "set"
    assert kind_of("10H 10C", "german-wiki") == "set"
    assert kind_of("9H 9S 9C", "german-wiki") == "set"


def test_example_000_multi_assaf_20_per_assafer() -> None:
    # «pro Spieler, der ihn unterboten hat, 20 Strafpunkte zusätzlich»
    result = call(["3H 4H", "6S", "2D 3D", "KC"], 0, rules="german-wiki")
    assert result.assafers == (1, 2)
    assert result.round_scores == (47, 6, 0, 10)


# ----------------------------------------------------------------------------- 001 Finnish


def test_example_001_166_plus_34_is_200_halved_to_100() -> None:
    # «Jos sinulla on 166 pistettä ja huudat neljän pisteen kädellä mutta häviät, saat 34
    # pistettä ja päädyt tasan 200 pisteeseen, joka lasketaan 100 pisteeksi.»
    result = call(["AH 3H", "4S", "KD QD"], 0, rules="finnish", totals=[166, 20, 30])
    assert result.assaf is True
    assert result.round_scores[0] == 34
    assert result.totals[0] == 100
    assert 0 in result.landed and 0 not in result.eliminated


def test_example_001_198_168_both_end_on_201() -> None:
    # «Jos tilanne on 198–168 ja 168 pisteessä oleva huutaa kolmen pisteen kädellä mutta
    # kohtaa toisen kolmen pisteen käden, molemmat päätyvät 201 pisteeseen.»
    result = call(["2S AS", "AH 2H"], 1, rules="finnish", totals=[198, 168])
    assert result.values == (3, 3)
    assert result.round_scores == (3, 33)
    assert result.totals == (201, 201)
    assert min(result.totals) > 200  # both over the limit, neither strictly lowest
    # «tasatulos tuo uuden kierroksen»: a tie for lowest brings a new round.
    assert result.game_over is False
    assert result.tiebreak == (0, 1)


def test_example_001_198_168_with_a_third_player_who_wins() -> None:
    result = call(["2S AS", "AH 2H", "9C"], 1, rules="finnish", totals=[198, 168, 50])
    assert result.totals == (201, 201, 59)
    assert result.game_over is True
    assert result.winners == (2,)


def test_example_001_anna_calls_with_five_ville_equally_low() -> None:
    # «Jos Anna huutaa viidellä mutta Villen käsi on yhtä pieni, Anna saa ... 35»
    result = call(["2H 3H", "5S"], 0, rules="finnish")
    assert result.round_scores == (35, 5)


def test_example_001_threshold_five_or_less() -> None:
    assert state(["2H 3H", "KS"], rules="finnish").apply(0, "yaniv") is not None
    assert_illegal(state(["2H 4H", "KS"], rules="finnish"), 0, "yaniv")


def test_example_001_four_five_joker_seven_only_ends_takeable() -> None:
    # «Jos heität ruutunelosen, ruutuviitosen, jokerin ja ruutuseiskan tässä järjestyksessä,
    # seuraava pelaaja voi ottaa nelosen tai seiskan mutta ei viitosta eikä jokeria.»
    st = state(["4D 5D JK 7D KS", "QC 9S"], rules="finnish")
    st.apply(0, "discard 4D 5D JK 7D; draw")
    assert takeable(st) == ["4D", "7D"]
    st.apply(1, "discard QC")
    assert_illegal(st, 1, "take 5D")
    assert_illegal(st, 1, "take JK")
    st.apply(1, "take 7D")
    assert hand(st, 1) == ["7D", "9S"]


def test_example_001_three_eights_heart_in_the_middle() -> None:
    # «Kolme kasia, joiden keskellä on herttakasi, jättää otettavaksi vain kaksi mustaa kasia.»
    st = state(["8S 8H 8C KS", "QC 9S"], rules="finnish")
    st.apply(0, "discard 8S 8H 8C; draw")
    assert takeable(st) == ["8C", "8S"]
    st.apply(1, "discard QC")
    assert_illegal(st, 1, "take 8H")
    st.apply(1, "take 8S")
    assert pile(st)[-2] == ["8H", "8C"]


def test_example_001_run_ending_in_a_joker() -> None:
    # «... seuraava pelaaja voi silloin ottaa jokerin tai ysin, kuten sarjassa jokeri, kasi ja ysi.»
    st = state(["JK 8C 9C KS", "QD 9S"], rules="finnish")
    st.apply(0, "discard JK 8C 9C; draw")
    assert takeable(st) == ["9C", "JK"]


def test_example_001_three_fives_and_two_nines_take_two_turns() -> None:
    st = state(["5S 5H 5D 9S 9C", "QD 2D"], rules="finnish", stock="AD 2C 3C")
    assert_illegal(st, 0, "discard 5S 5H 5D 9S 9C")
    st.apply(0, "discard 5S 5H 5D; draw")
    st.apply(1, "discard QD; draw")
    st.apply(0, "discard 9S 9C; draw")
    assert hand(st, 0) == ["3C", "AD"]


def test_example_001_out_of_turn_call_thirty() -> None:
    # «Vuoron ulkopuolella tehty huuto tuo väärin huutaneelle kolmekymmentä pistettä,
    # kun taas muut saavat nollan.»
    result = state(["KH QH", "AS 2S", "KD 9D"], rules="finnish").apply(2, "yaniv")
    assert result.round_scores == (0, 0, 30)


# ----------------------------------------------------------------------------- 002 Slovenian


def test_example_002_after_5_6_7_only_the_7() -> None:
    # «igralec odvrže lestvico 5, 6, 7. Igralec za njim lahko vzame le 7.»
    st = state(["5S 6S 7S KD", "QC 9H", "4C"], rules="slovenian-yanef")
    st.apply(0, "discard 5S 6S 7S; draw")
    assert takeable(st) == ["7S"]
    st.apply(1, "discard QC")
    assert_illegal(st, 1, "take 5S")
    st.apply(1, "take 7S")
    assert hand(st, 1) == ["7S", "9H"]
    assert pile(st)[-2] == ["5S", "6S"]


def test_example_002_joker_exchange_5_6_joker_8_of_spades() -> None:
    # «igralec odvrže pikovo lestvico 5, 6, joker, 8. Igralec za njim lahko vzame oziroma
    # zamenja jokerja, če ima pikovo sedmico. V tem primeru igralec ne vleče ali odvrže več
    # nobene karte in na vrsti je naslednji igralec»
    st = state(["5S 6S JK 8S KD", "7S QC", "4C 4D"], rules="slovenian-yanef", stock="AD 2D 3D")
    st.apply(0, "discard 5S 6S JK 8S; draw")
    assert pile(st)[-1] == ["5S", "6S", "JK", "8S"]
    assert [str(c) for c in st.swappable()] == ["7S"]
    st.apply(1, "swap 7S")
    assert hand(st, 1) == ["JK", "QC"]
    assert pile(st)[-1] == ["5S", "6S", "7S", "8S"]
    assert st.to_position()["stock"] == ["2D", "3D"]  # no draw
    assert st.current == 2 and st.phase_name == "turn_start"
    assert takeable(st) == ["8S"]


def test_example_002_king_of_hearts_and_jokers_worth_zero() -> None:
    r = Rules.from_spec("slovenian-yanef")
    assert hand_value("KH JK JK", r) == 0
    assert hand_value("KS QH JD", r) == 30


def test_example_002_asef_win_and_loss() -> None:
    # «... se mu odšteje 30 točk ... a izgubi, se mu prišteje 60 točk.»
    win = state(["4C", "3S 9S", "6D 7D"], rules="slovenian-yanef", stock="2D QC", totals=[50, 50, 50])
    win.apply(0, "discard 4C")
    assert win.apply(0, "asef").totals == (20, 62, 63)
    loss = state(["4C", "AS", "6D 7D"], rules="slovenian-yanef", stock="2D QC", totals=[50, 50, 50])
    loss.apply(0, "discard 4C")
    assert loss.apply(0, "asef").totals == (110, 50, 63)


# ----------------------------------------------------------------------------- 003 Spanish


def test_example_003_four_player_round() -> None:
    """003's example, players 1–4 = seats P0–P3; P0 starts (RULES.md A18: the 9 is P3's)."""
    st = state(
        [
            "AH 2H 3H KS 9D",  # player 1: «as, 2 y 3 de corazones, un rey y un 9: 25 puntos»
            "KD QS 2C 3D 4S",  # player 2
            "10C 10D 7C 8C 9C",  # player 3
            "QD KH 4H 5H 6H",  # player 4
        ],
        rules="spanish-zone",
        pile=["QC", "9S"],
        stock="AS JK 3C AD 2D AC 3S 4C 2S 4D JK 5C 6C",
        current=0,
    )
    assert st.hand_value(0) == 25
    # 1. player 1 discards A-2-3 of hearts and takes the 9 just discarded by player 4.
    st.apply(0, "discard AH 2H 3H; take 9S")
    assert hand(st, 0) == ["9D", "9S", "KS"] and st.hand_value(0) == 28
    st.apply(1, "discard KD; draw")  # AS
    st.apply(2, "discard 7C 8C 9C; draw")  # JK
    st.apply(3, "discard 4H 5H 6H; draw")  # 3C
    # 2. player 1 discards the two nines and draws an ace: K + A = 11.
    st.apply(0, "discard 9D 9S; draw")
    assert hand(st, 0) == ["AD", "KS"] and st.hand_value(0) == 11
    st.apply(1, "discard QS; draw")  # 2D
    st.apply(2, "discard 10C 10D; draw")  # AC
    st.apply(3, "discard QD; draw")  # 3S
    # 3. player 1 discards the king and draws a 4: A + 4 = 5.
    st.apply(0, "discard KS; draw")
    assert hand(st, 0) == ["4C", "AD"] and st.hand_value(0) == 5
    st.apply(1, "discard 2D; draw")  # 2S
    st.apply(2, "discard AC; draw")  # 4D
    st.apply(3, "discard KH; draw")  # JK
    # 4. player 1 calls Yaniv: player 4 has 6, player 2 has 12, player 3 has 4.
    assert (st.hand_value(3), st.hand_value(1), st.hand_value(2)) == (6, 12, 4)
    result = st.apply(0, "yaniv")
    # 5. Assaf by player 3: player 1 scores 5 + 30 = 35; player 3 0, player 4 6, player 2 12.
    assert result.assaf is True and result.assafers == (2,)
    assert result.round_scores == (35, 12, 0, 6)
    assert result.totals == (35, 12, 0, 6)
    assert result.next_starter == 2  # «el ganador de la ronda anterior»
    assert result.game_over is False


def test_A18_only_the_previous_players_nine_is_takeable() -> None:
    # The 9 discarded by player 3 (P2) two turns earlier lies in an older group: not takeable.
    st = state(["AH 2H 3H KS 9D", "KD QS", "10C 10D", "QD KH"], rules="spanish-zone", pile=["9C", "4S"])
    st.apply(0, "discard AH 2H 3H")
    assert_illegal(st, 0, "take 9C")
    assert [str(a) for a in st.legal_actions()] == ["draw", "take 4S"]


def test_example_003_computer_options_y5_and_out100() -> None:
    assert_illegal(state(["6H", "KS"], rules="spanish-zone-y5"), 0, "yaniv")
    assert state(["6H", "KS"], rules="spanish-zone").apply(0, "yaniv") is not None
    assert call(["AH", "KS"], 0, rules="spanish-zone-out100", totals=[0, 95]).eliminated == (1,)
    assert call(["AH", "KS"], 0, rules="spanish-zone", totals=[0, 95]).eliminated == ()


def test_example_003_exactly_100_becomes_50() -> None:
    # «¿Qué pasa con exactamente 100 puntos? Tu puntuación se reduce a la mitad, a 50.»
    assert call(["AH", "KS"], 0, rules="spanish-zone", totals=[0, 90]).totals == (0, 50)


def test_example_game_seeded_playthrough_is_reproducible() -> None:
    def play(seed: int) -> list[tuple[int, ...]]:
        game = Game("spanish-zone", players=4, seed=seed)
        values = game.rules.card_values
        totals = []
        for _ in range(3):
            st = game.round
            for _turn in range(500):
                if st.result is not None:
                    break
                seat = st.current
                acts = st.legal_actions()
                if any(a.type == "yaniv" for a in acts):
                    game.apply(seat, "yaniv")
                    continue
                best = max(
                    (a for a in acts if a.type == "discard"),
                    key=lambda a: (sum(values[c] for c in a.cards), len(a.cards), str(a)),
                )
                game.apply(seat, best)
                game.apply(seat, "draw")
            assert st.result is not None
            totals.append(st.result.totals)
            if game.over:
                break
            game.next_round()
        return totals

    first = play(5)
    assert len(first) >= 1
    assert first == play(5)
