"""Race to the Table's ENGINE: the state, its policies and its scenario support together."""
from __future__ import annotations

from ..engine import Engine, random_policy
from .policies import greedy_policy
from .setups import ACTION_EXAMPLE, ACTION_KEYS, describe_action, from_setup, parse_action
from .state import box_from_game, check_options, new_game

ENGINE = Engine(
    slug="race-to-the-table",
    new_game=new_game,
    policies={"random": random_policy, "greedy": greedy_policy},
    # Variants: play without roles (first game), the quick game, teams of 2 or 3 from 7 players.
    options={"roles": True, "quick": False, "team_size": 2},
    check_options=check_options,
    max_actions=2_000,
    box=box_from_game,
    from_setup=from_setup,
    parse_action=parse_action,
    describe_action=describe_action,
    action_keys=ACTION_KEYS,
    action_example=ACTION_EXAMPLE,
)
