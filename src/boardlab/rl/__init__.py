"""Learning interfaces over every registered game: PettingZoo (multi-agent), Gymnasium (one seat
against boardlab bots) and OpenSpiel (registered Python games). Each lives in its own module and
imports its library only when used, so `pip install boardlab[rl]` is needed only for these:

>>> from boardlab.rl import pettingzoo          # doctest: +SKIP
>>> env = pettingzoo.env("cacao", players=3)      # doctest: +SKIP

Everything here goes through the core (`Game.encode_observation`, `num_distinct_actions`,
`action_to_id`, `Game.action_split` for compact actions, `State.view`, `State.determinize`): a new game gets
these interfaces with no code. A game may also get a hand-made observation tensor here (`encoders/`, read from
its view only; every built-in game has one).
"""
