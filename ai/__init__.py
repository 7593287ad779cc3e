"""Agents that play Res Arcana through the engine's public interface (`legal_actions`, `apply`,
`clone`, `observation`, `amigos.determinize`): ``ai.make_agent(spec)`` builds one from a spec
string such as ``"mcts:time=1"``, and ``agent.select(state)`` returns a legal action for
``state.current_player()`` (see `ai.agents` for the specs, `ai.agent` for what every agent has and the
loop that plays games with them)."""

from .agents import SpecError, make_agent

__all__ = ["SpecError", "make_agent"]
