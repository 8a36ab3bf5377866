"""The report's statistics against published and independent figures: Newcombe's worked example for the
difference of two proportions, R's p.adjust for Holm and Benjamini-Hochberg, scipy's chi-square test for the
two-proportion p-value."""

from __future__ import annotations

import pytest
from scipy.stats import chi2_contingency

from boardlab.core.stats import benjamini_hochberg, diff_ci, diff_p, holm


def test_newcombe_hybrid_interval_matches_the_paper() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, table II, example (a): 56/70 - 48/80, method 10
    lo, hi = diff_ci(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)
    # example (c): 5/56 - 0/29 -> -0.0381 to 0.1926 (a zero cell, where the normal interval fails)
    lo, hi = diff_ci(5, 56, 0, 29)
    assert (round(lo, 4), round(hi, 4)) == (-0.0381, 0.1926)


@pytest.mark.parametrize("a,n1,b,n2", [(56, 70, 48, 80), (9, 40, 20, 45), (30, 100, 31, 100)])
def test_two_proportion_p_is_the_uncorrected_chi_square(a: int, n1: int, b: int, n2: int) -> None:
    _, p, _, _ = chi2_contingency([[a, n1 - a], [b, n2 - b]], correction=False)
    assert diff_p(a, n1, b, n2) == pytest.approx(p, rel=1e-9)


def test_holm_and_benjamini_hochberg_match_r() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") and "BH"
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == benjamini_hochberg([]) == []
