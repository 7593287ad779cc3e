"""The sequential probability ratio test on seat-swapped pairs, as engine testers run it (fishtest).

A pair is two games on one deal with the seats swapped; agent A's score over the pair is 0, 0.5, 1,
1.5 or 2, so a run is five counts (the *pentanomial*), which keeps the deal's luck out of the
variance.  The test weighs H0 "A is ``elo0`` stronger than B" against H1 "A is ``elo1`` stronger"
(logistic Elo: an expected score of 1 / (1 + 10^(-elo/400))) with the generalised log-likelihood
ratio: for each hypothesis the likeliest pentanomial distribution whose expected score is that
hypothesis's (Van den Bergh's maximum-likelihood fit, the method of fishtest's ``LLRcalc``), then
the log ratio of the two likelihoods of the counts.  The test stops when the ratio leaves
(log(beta / (1 - alpha)), log((1 - beta) / alpha)): below, H0 is accepted; above, H1.

Verdicts are computed on pairs in schedule order (`sprt_over_pairs`), so that a run played in
parallel processes, where pairs finish in any order, reaches the same verdict at the same pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

#: A's score over a pair (0 to 2, in half points) -> the index of its pentanomial count.
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
#: Counts of zero are replaced by this much, so that a likelihood is never log(0) (fishtest's way).
REGULARIZE = 1e-3


def expected_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` logistic-Elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    """The logistic Elo difference of an expected score per game in (0, 1)."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds (lower, upper) for false-positive rate ``alpha`` and false-negative ``beta``."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def pentanomial(pair_scores: list[float]) -> list[int]:
    """Counts of pair scores 0, 0.5, 1, 1.5 and 2 (A's points over each pair)."""
    counts = [0] * 5
    for score in pair_scores:
        counts[PAIR_SCORES.index(score)] += 1
    return counts


def _fit(values: list[float], probs: list[float], score: float) -> list[float]:
    """The distribution over ``values`` closest to ``probs`` (maximum likelihood) whose mean is
    ``score``: p_i = probs_i / (1 + x (values_i - score)), with x found by bisection."""
    d = [v - score for v in values]
    # 1 + x d_i > 0 for every i: x lies between -1/max(d) and -1/min(d).
    lo = -1.0 / max(d)
    hi = -1.0 / min(d)
    for _ in range(200):
        x = (lo + hi) / 2
        f = sum(p * di / (1.0 + x * di) for p, di in zip(probs, d))
        if f > 0:  # the mean is still above score: x must grow
            lo = x
        else:
            hi = x
    x = (lo + hi) / 2
    return [p / (1.0 + x * di) for p, di in zip(probs, d)]


def llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for pentanomial
    ``counts``; 0 when there are no pairs."""
    n = sum(counts)
    if n == 0:
        return 0.0
    regular = [c if c > 0 else REGULARIZE for c in counts]
    total = sum(regular)
    probs = [c / total for c in regular]
    values = [s / 2 for s in PAIR_SCORES]  # the score per game of each pair result
    s0, s1 = expected_score(elo0), expected_score(elo1)
    p0, p1 = _fit(values, probs, s0), _fit(values, probs, s1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, p0, p1))


def elo_estimate(counts: list[int]) -> tuple[float, float, float]:
    """Elo of A over B from pentanomial ``counts`` with its 95% interval (low, high), using the
    variance of the pair results."""
    n = sum(counts)
    if n == 0:
        return 0.0, -math.inf, math.inf
    values = [s / 2 for s in PAIR_SCORES]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    half = 1.96 * math.sqrt(var / n)
    return elo_of(mean), elo_of(mean - half), elo_of(mean + half)


class SprtTest(NamedTuple):
    """What a sequential test asks: is A ``elo1`` rather than ``elo0`` Elo stronger than B, with these
    false-positive (``alpha``) and false-negative (``beta``) rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05


@dataclass
class Sprt:
    """An SPRT's settings and state after some pairs; `record` is its summary.json form."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    counts: tuple[int, ...] = (0, 0, 0, 0, 0)
    llr: float = 0.0

    @property
    def lower(self) -> float:
        return bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        return bounds(self.alpha, self.beta)[1]

    @property
    def result(self) -> str:
        """"H0" (A is not ``elo1`` better: reject the change), "H1" (accept it), or "continue"."""
        if self.llr <= self.lower:
            return "H0"
        if self.llr >= self.upper:
            return "H1"
        return "continue"

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def record(self) -> dict[str, Any]:
        elo, low, high = elo_estimate(list(self.counts))
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "llr": round(self.llr, 4), "lower": round(self.lower, 4), "upper": round(self.upper, 4),
                "result": self.result, "pairs": self.pairs, "pentanomial": list(self.counts),
                "elo": round(elo, 1), "elo_low": round(low, 1), "elo_high": round(high, 1)}

    def line(self) -> str:
        """One line for people: the LLR against its bounds, the verdict, the pairs and the Elo."""
        elo, low, high = elo_estimate(list(self.counts))
        verdict = {"H0": "H0 accepted", "H1": "H1 accepted", "continue": "no verdict yet"}[self.result]
        return (f"SPRT [{self.elo0:g}, {self.elo1:g}] alpha {self.alpha:g} beta {self.beta:g}: "
                f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f}), {verdict} after {self.pairs} "
                f"pairs {list(self.counts)}; Elo {elo:+.1f} (95% {low:+.1f} to {high:+.1f})")


def parse_bounds(text: str) -> tuple[float, float]:
    """``"0,10"`` -> (0.0, 10.0); raises ValueError with a message for people."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"--sprt takes ELO0,ELO1 (e.g. 0,10), not {text!r}")
    try:
        elo0, elo1 = (float(x) for x in parts)
    except ValueError:
        raise ValueError(f"--sprt takes two numbers ELO0,ELO1, not {text!r}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
        raise ValueError(f"--sprt needs finite ELO0 < ELO1, not {text!r}")
    return elo0, elo1


def check_rates(alpha: float, beta: float) -> None:
    """Raise ValueError unless both error rates lie strictly between 0 and 0.5."""
    for name, x in (("alpha", alpha), ("beta", beta)):
        if not 0 < x < 0.5:
            raise ValueError(f"--{name} must lie between 0 and 0.5, not {x:g}")


def sprt_over_pairs(pair_scores: list[float | None], elo0: float, elo1: float, alpha: float = 0.05,
                    beta: float = 0.05) -> Sprt:
    """The test over pairs in schedule order: ``pair_scores[k]`` is A's points over pair k, or None
    while the pair is unfinished.  Only the finished prefix counts, and the test stops at the first
    pair where the LLR leaves its bounds, so the verdict does not depend on the order in which
    parallel games finished."""
    test = Sprt(elo0, elo1, alpha, beta)
    counts = [0] * 5
    for score in pair_scores:
        if score is None:
            break
        counts[PAIR_SCORES.index(score)] += 1
        test.counts = tuple(counts)
        test.llr = llr(counts, elo0, elo1)
        if test.result != "continue":
            break
    return test
