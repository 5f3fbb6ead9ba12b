"""Uchronia facts from the rules: colors, construction costs, thresholds, defaults.

Source: the Russian translation of the rules, ``seeds/002_f029463eacb11737.txt``
(sections "Успешное завершение строительства" and "Конец игры"). Uchronia has
no public component list (the project's data notes say so): a log names its
buildings and their colors. A building's victory points are as printed
on it (UCH-SCORE): the log's ``vp``; where the log states none, they equal
its construction cost, which is our reading (not in the seeds).
"""

from __future__ import annotations

from typing import Literal

Color = Literal["wood", "clay", "brick", "stone", "marble"]

COLORS: tuple[str, ...] = ("wood", "clay", "brick", "stone", "marble")
"""docs/log-format.md: the five colors of cards, resources and buildings."""

COST: dict[str, int] = {"wood": 1, "clay": 1, "brick": 2, "stone": 2, "marble": 3}
"""UCH-COST: resources a building of each color needs (seed: wood and clay 1, brick and stone 2, marble 3)."""

THRESHOLD: dict[int, int] = {2: 20, 3: 18, 4: 16, 5: 14}
"""UCH-THRESHOLD: victory points that end the game, by number of players (seed: "Порог Очков Победы")."""

STARTING_OPERATIONS_LIMIT = 2
"""Operations limit before any building is built (not in the seeds: the seed only says
that each completed building raises it by 1; 2 is our reading). ``setup.operations_limit``
overrides it."""

SOURCE = "seeds/002_f029463eacb11737.txt"
