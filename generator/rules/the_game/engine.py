"""The Game's ENGINE: the state, its policies and its scenario support together."""
from __future__ import annotations

from ..engine import Engine, random_policy
from . import MINIMUM
from .policies import heuristic_policy
from .setups import ACTION_EXAMPLE, ACTION_KEYS, describe_action, from_setup, parse_action
from .state import box_from_game, new_game

ENGINE = Engine(
    slug="the-game",
    new_game=new_game,
    policies={"random": random_policy, "heuristic": heuristic_policy},
    # The variant: min_after_empty=1, the published rules' minimum once the draw pile is empty.
    options={"min_after_empty": MINIMUM},
    max_actions=1_000,              # 98 plays and fewer turn ends than plays
    box=box_from_game,
    from_setup=from_setup,
    parse_action=parse_action,
    describe_action=describe_action,
    action_keys=ACTION_KEYS,
    action_example=ACTION_EXAMPLE,
)
