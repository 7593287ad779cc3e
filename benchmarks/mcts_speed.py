"""MCTS throughput: ``python -m benchmarks.mcts_speed [--seconds 3]`` prints iterations per second with
1 and 2 worker processes from a mid-game position, and the cost of one determinisation (from
scratch, and as the search deals one each iteration).
``--positions`` prints instead the one-process rate over six positions from different games and
rounds (2,000 iterations each), which moves less with the position than the single one; ``--games N``
the rate over all the searches of N whole games against greedy, late rounds included; ``--ratio R`` the
network's rate as a share of the linear value's, their searches taken in turn position by position, R
rounds, the least CPU time of each (what a busy or throttled machine moves least)."""

from __future__ import annotations

import argparse
import sys
import time
import timeit

from ai.agents import make_agent
from amigos.determinize import Determinizer, determinize
from benchmarks.bench_positions import search_position as mid_game


def main(argv=None) -> int:
    from lab.run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rollout", type=int, default=30)
    ap.add_argument("--positions", action="store_true", help="one process, six positions")
    ap.add_argument("--value", choices=("linear", "net"), help="with --positions: the learned value's search "
                    "(no rollout), by the linear value or the packaged network")
    ap.add_argument("--games", type=int, default=0,
                    help="instead: the rate over whole games of mcts:iters=1000 against greedy (one process)")
    ap.add_argument("--ratio", type=int, default=0, metavar="ROUNDS",
                    help="instead: the network's iterations a second as a share of the linear value's")
    args = ap.parse_args(argv)
    if args.ratio:
        return net_share(args.ratio)
    if args.positions:
        return over_positions(args.rollout, args.value)
    if args.games:
        return over_games(args.games, args.rollout)
    s = mid_game()
    for workers in (1, 2):
        agent = make_agent(f"mcts:time={args.seconds},workers={workers},seed=1,rollout={args.rollout}")
        if workers > 1:
            agent.select(s)  # warm the worker processes up
        start = time.perf_counter()
        agent.select(s)
        elapsed = time.perf_counter() - start
        print(f"workers={workers}: {agent.info['iterations'] / elapsed:,.0f} iterations/s "
              f"({agent.info['iterations']} in {elapsed:.2f} s, rollout={args.rollout})")
        close = getattr(agent, "close", None)
        if close:
            close()
    p = s.current_player()
    n = 2000
    print(f"determinize: {min(timeit.repeat(lambda: determinize(s, p, 7), number=n, repeat=3)) / n * 1e6:.1f} us")
    deal = Determinizer(s, p).deal  # what the search pays an iteration: the observation worked out once
    print(f"deal from a prepared Determinizer: {min(timeit.repeat(lambda: deal(7), number=n, repeat=3)) / n * 1e6:.1f} us")
    return 0


POSITIONS = ((3, 30), (1, 30), (2, 45), (4, 60), (5, 20), (6, 80))  # (game seed, moves made): six positions


def net_share(rounds: int) -> int:
    """Print the network's and the linear value's iterations a second over `POSITIONS` and the share:
    each position searched 2,000 iterations by one then the other, ``rounds`` times, the least CPU time
    of each position and value counted."""
    from ai.evaluator import default_evaluator
    from ai.mcts import Settings, search
    settings = Settings(rollout=0)
    values = {name: default_evaluator(name) for name in ("net", "linear")}
    states = [mid_game(seed, steps) for seed, steps in POSITIONS]
    least = {name: [float("inf")] * len(states) for name in values}
    iterations = dict.fromkeys(values, 0)
    for s in states:
        for evaluator in values.values():
            search(s, s.current_player(), 100, None, 1, settings, evaluator=evaluator)  # warm the caches
    for r in range(rounds):
        for k, s in enumerate(states):
            for name, evaluator in values.items():
                start = time.process_time()
                _, done = search(s, s.current_player(), 2000, None, 1, settings, evaluator=evaluator)
                least[name][k] = min(least[name][k], time.process_time() - start)
                if r == 0:  # (each position's iterations counted once, beside its least time)
                    iterations[name] += done
    rate = {name: iterations[name] / sum(least[name]) for name in values}
    print(f"network {rate['net']:,.0f}, linear value {rate['linear']:,.0f} iterations/s: "
          f"{rate['net'] / rate['linear']:.1%} ({rounds} rounds, least CPU time)")
    return 0


def over_positions(rollout: int, value: str | None = None) -> int:
    from ai.evaluator import HAND, default_evaluator
    from ai.mcts import Settings, search
    settings = Settings(rollout=rollout if value is None else 0)
    evaluator = default_evaluator(HAND if value is None else value)
    iterations = seconds = 0.0
    for seed, steps in POSITIONS:
        s = mid_game(seed, steps)
        p = s.current_player()
        search(s, p, 100, None, 1, settings, evaluator=evaluator)  # warm the caches
        start = time.perf_counter()
        _, done = search(s, p, 2000, None, 1, settings, evaluator=evaluator)
        elapsed = time.perf_counter() - start
        print(f"game {seed}, round {s.round}: {done / elapsed:,.0f} iterations/s")
        iterations += done
        seconds += elapsed
    print(f"six positions: {iterations / seconds:,.0f} iterations/s "
          f"({'rollout=' + str(rollout) if value is None else 'value=' + value})")
    return 0


def over_games(games: int, rollout: int) -> int:
    """Iterations per second over every search of whole games (late rounds, with many components and
    big pools, search slower than the mid-game positions)."""
    import amigos
    from amigos.rng import derive_seed
    iterations = seconds = 0.0
    for i in range(games):
        seed = derive_seed(11, "pair", i)
        state = amigos.new_game(seed, "standard")
        agents = [make_agent(f"mcts:iters=1000,seed={i},rollout={rollout}"), make_agent("greedy", seed=i)]
        done = spent = 0.0
        while not state.is_terminal() and state.round <= 30:
            p = state.current_player()
            start = time.perf_counter()
            action = agents[p].select(state)
            if p == 0:
                spent += time.perf_counter() - start
                done += agents[0].info.get("iterations", 0)
            state.apply(action)
        print(f"game {i}: {done / spent:,.0f} iterations/s over {state.round} rounds")
        iterations += done
        seconds += spent
    print(f"{games} games: {iterations / seconds:,.0f} iterations/s (rollout={rollout})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
