"""Reinforcement-learning environments in the shapes RL libraries consume:

  AECEnv          the PettingZoo AEC API (agent_iter, last, step, observe, observation
                  ["action_mask"]) for both sides;
  SingleAgentEnv  the Gymnasium API (reset(seed) -> obs, info; step -> obs, reward, terminated,
                  truncated, info) for one side against a built-in opponent.

Dice are rolled inside, with a Rng seeded from reset(seed=...): no chance node reaches the
caller (as PettingZoo's AEC envs and TorchRL's OpenSpiel wrapper do). An observation is a dict:
"observation" float32[C, H, W] and "globals" float32[G] (copies: they stay valid) seen by the side
to move, and "action_mask" int8[A], 1 on the legal actions. PettingZoo and Gymnasium are not
Debian packages: these classes follow their APIs without importing them, and use their spaces
where they are installed (else small stand-ins with the same attributes: n, shape, dtype,
sample(mask), contains).
"""

import operator

import numpy as np

from . import _core
from ._core import Agent

SIDES = ("blue", "orange")

try:  # gymnasium's spaces where installed; small stand-ins otherwise
    from gymnasium import spaces as _gym_spaces
except ImportError:  # pragma: no cover - depends on the machine
    _gym_spaces = None


def _action_index(action):
    """`action` as an action index: an int or a numpy integer; a float (1.5) or a string is a
    TypeError, never truncated to another action."""
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"step: an action is an integer index, not {action!r}") from None


class Discrete:
    """Stand-in for gymnasium.spaces.Discrete: the integers 0..n-1."""

    def __init__(self, n, seed=None):
        self.n, self.shape, self.dtype = int(n), (), np.int64
        self._rng = np.random.default_rng(seed)

    def sample(self, mask=None):
        if mask is None:
            return int(self._rng.integers(self.n))
        legal = np.flatnonzero(mask)
        return int(legal[self._rng.integers(len(legal))])

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n


class Box:
    """Stand-in for gymnasium.spaces.Box: arrays of `shape` between low and high."""

    def __init__(self, low, high, shape, dtype):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all((x >= self.low) & (x <= self.high)))


class Dict:
    """Stand-in for gymnasium.spaces.Dict."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return set(x) == set(self.spaces) and all(s.contains(x[k]) for k, s in self.spaces.items())


def _spaces(scenario):
    """(observation space, action space) of `scenario`."""
    planes = scenario.observation_shape
    actions = scenario.num_distinct_actions
    if _gym_spaces is not None:  # pragma: no cover - depends on the machine
        return (_gym_spaces.Dict({
            "observation": _gym_spaces.Box(-1.0, 1.0, planes, np.float32),
            "globals": _gym_spaces.Box(-1.0, 1.0, (scenario.globals_size,), np.float32),
            "action_mask": _gym_spaces.Box(0, 1, (actions,), np.int8)}),
            _gym_spaces.Discrete(actions))
    return (Dict({"observation": Box(-1.0, 1.0, planes, np.float32),
                  "globals": Box(-1.0, 1.0, (scenario.globals_size,), np.float32),
                  "action_mask": Box(0, 1, (actions,), np.int8)}),
            Discrete(actions))


def _load(scenario):
    return scenario if isinstance(scenario, _core.Scenario) else _core.load_scenario(scenario)


def _observation(state):
    planes, globals_ = state.observation()
    return {"observation": np.array(planes), "globals": np.array(globals_),
            "action_mask": state.legal_actions_mask().astype(np.int8)}


def _roll(state, rng):
    while state.is_chance_node():
        state.apply_chance(state.sample_chance(rng))


class AECEnv:
    """Both sides of a game in PettingZoo's AEC API. The same side may act several times in a
    row (a player-turn is many actions): agent_iter() yields whoever acts next. observe() of
    the side not to move gives its last observation with an empty mask."""

    metadata = {"name": "morne_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, scenario="duel", render_mode=None):
        self.scenario = _load(scenario)
        self.render_mode = render_mode
        self.possible_agents = list(SIDES)
        observation_space, action_space = _spaces(self.scenario)
        self.observation_spaces = {a: observation_space for a in SIDES}
        self.action_spaces = {a: action_space for a in SIDES}
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self._rng = _core.Rng(0 if seed is None else seed)
        self.state = self.scenario.new_game()
        _roll(self.state, self._rng)
        self.agents = list(SIDES)
        self.rewards = {a: 0.0 for a in SIDES}
        self._cumulative_rewards = {a: 0.0 for a in SIDES}
        self.terminations = {a: False for a in SIDES}
        self.truncations = {a: False for a in SIDES}
        self.infos = {a: {} for a in SIDES}
        self._last = {a: None for a in SIDES}
        self.agent_selection = SIDES[self.state.current_player()]

    def observe(self, agent):
        if self.state is None:
            raise RuntimeError("reset() first")
        if not self.state.is_terminal() and agent == SIDES[self.state.current_player()]:
            self._last[agent] = _observation(self.state)
            return self._last[agent]
        seen = self._last[agent]
        if seen is None:
            space = self.observation_spaces[agent]
            seen = {k: np.zeros(space[k].shape, space[k].dtype) for k in space.spaces}
        return dict(seen, action_mask=np.zeros_like(seen["action_mask"]))

    def last(self, observe=True):
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent}'s game is over: step(None) removes it")
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(_action_index(action))
        _roll(self.state, self._rng)
        self.rewards = {a: 0.0 for a in SIDES}
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: returns[i] for i, a in enumerate(SIDES)}
            self.terminations = {a: True for a in SIDES}
            self.infos = {a: {"result": self.state.result()} for a in SIDES}
        else:
            self.agent_selection = SIDES[self.state.current_player()]
        for a in SIDES:
            self._cumulative_rewards[a] += self.rewards[a]

    def render(self):
        return str(self.state) if self.render_mode == "ansi" else None

    def close(self):
        pass


class SingleAgentEnv:
    """One side of a game in Gymnasium's API, against a built-in opponent (any agent spec).
    The reward is +1 for a win, -1 for a loss, 0 otherwise, given when the game ends;
    info["action_mask"] holds the mask too, as Gymnasium's masked wrappers expect."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scenario="duel", opponent="rule", side="blue", render_mode=None):
        if side not in SIDES:
            raise ValueError(f"side must be one of {SIDES}, not {side!r}")
        self.scenario = _load(scenario)
        self.opponent_spec, self.side = opponent, SIDES.index(side)
        Agent(opponent)  # a bad spec fails here, not at reset
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(self.scenario)
        self.state = None

    def _play_opponent(self):
        _roll(self.state, self._rng)
        while not self.state.is_terminal() and self.state.current_player() != self.side:
            self.state.apply(self._opponent.decide(self.state))
            _roll(self.state, self._rng)

    def _observe(self):
        if self.state.is_terminal():
            space = self.observation_space
            obs = {k: np.zeros(space[k].shape, space[k].dtype) for k in space.spaces}
        else:
            obs = _observation(self.state)
        return obs, {"action_mask": obs["action_mask"]}

    def reset(self, seed=None, options=None):
        seed = 0 if seed is None else seed
        self._rng = _core.Rng(seed)
        self._opponent = Agent(self.opponent_spec, _core.derive_seed(seed, 1))
        self.state = self.scenario.new_game()
        self._play_opponent()
        return self._observe()

    def step(self, action):
        if self.state is None or self.state.is_terminal():
            raise RuntimeError("the episode is over: reset() first")
        self.state.apply(_action_index(action))
        self._play_opponent()
        obs, info = self._observe()
        reward = 0.0
        if self.state.is_terminal():
            reward = self.state.returns()[self.side]
            info["result"] = self.state.result()
        return obs, reward, self.state.is_terminal(), False, info

    def render(self):
        return str(self.state) if self.render_mode == "ansi" else None

    def close(self):
        pass
