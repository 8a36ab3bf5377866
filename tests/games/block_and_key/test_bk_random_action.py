"""`random_action` and `is_legal` without the legal list (#36): Block and Key finds `legal_actions()[k]` from the
spot masks' popcounts and answers `action in legal_actions()` from one mask bit; both must agree with the list
itself in every position, for every index and for actions just beside the legal ones. The suite's mode (native
or `BOARDLAB_PURE=1`) decides which build is checked: `make test` runs native, pure runs check the source."""

from __future__ import annotations

import random

from bk_helpers import new
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.games.block_and_key.actions import Place
from boardlab.games.block_and_key.rules import BlockAndKeyState
from depth import examples


def fresh(s: BlockAndKeyState) -> BlockAndKeyState:
    """A copy of `s` whose legal list was never built (as after an `apply`)."""
    c = s.clone()
    c._legal = c._cache = None
    return c


def beside(p: Place, rng: random.Random) -> list[object]:
    """Actions near a legal placement: other anchors, orientations, blocks, the Ancients' kind, coordinates off the
    floor (a wrapped anchor bit), a bool for an int and a plain tuple equal to the `Place`."""
    out: list[object] = [p._replace(x=p.x + d) for d in (-1, 1, -20, 20)]
    out += [p._replace(y=p.y + 1), p._replace(z=p.z - 1), p._replace(orient=p.orient + 1), p._replace(orient=-1),
            p._replace(kind="ancients"), p._replace(block=rng.choice(["A1", "B2", "zz", p.block])),
            p._replace(orient=bool(p.orient)) if p.orient in (0, 1)
            else p._replace(orient=float(p.orient)),  # type: ignore[arg-type]
            tuple(p), p._replace(x=p.x + 0.0)]  # type: ignore[arg-type]
    return out


@settings(max_examples=examples(30))
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), face_contact=st.sampled_from(["block", "stack"]))
def test_random_action_is_the_listed_action_at_the_drawn_index(players: int, seed: int, face_contact: str) -> None:
    rng = random.Random(seed)
    s = new(players, seed, face_contact=face_contact)
    turns = 0
    while not s.is_over:
        probe = fresh(s)
        asked: list[int] = []
        legal = s.legal_actions()
        ks = {0, len(legal) - 1, *(rng.randrange(len(legal)) for _ in range(6))}
        for k in ks:
            def below(n: int, k: int = k, asked: list[int] = asked) -> int:
                asked.append(n)
                return k
            assert probe.random_action(below) == legal[k], (s.phase, k)
            assert probe._legal is None or s.phase != "turn"  # found without the list
        assert asked == [len(legal)] * len(ks)  # one draw per pick, over the list's length
        if s.phase == "turn":
            turns += 1
            places = [a for a in legal if isinstance(a, Place)]
            for a in [*rng.sample(legal, min(8, len(legal))), *(b for p in rng.sample(places, min(3, len(places)))
                                                                 for b in beside(p, rng))]:
                assert fresh(s).is_legal(a) == (a in legal), a
        s.apply(legal[rng.randrange(len(legal))])
    assert turns or players == 1


def test_random_play_draws_the_same_games_as_indexing_the_list() -> None:
    """The random-play loop's pick (`state.random_action(rng.randrange)`, then `apply`) plays the very games that
    indexing the built list with the same generator played: recorded random games stay identical."""
    for players in (1, 2, 3, 4):
        a, b = new(players, 7 + players), new(players, 7 + players)
        ra, rb = random.Random(players), random.Random(players)
        while not a.is_over:
            legal = a.legal_actions()
            a.apply(legal[ra.randrange(len(legal))])
            b.apply(b.random_action(rb.randrange))
        assert b.is_over and b.history == a.history and ra.random() == rb.random()
