"""Petrichor's log tells the story (issue #31): every change of score named with the move that made it (a
pass that ends a round says what the round's weather, votes and harvests gave), and why the game ended."""

from __future__ import annotations




