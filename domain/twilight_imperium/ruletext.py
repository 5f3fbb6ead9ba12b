"""The texts of Twilight Imperium's own rule IDs: those the seeds are silent on, so RULES.md does not hold them."""

from __future__ import annotations

RULE_TEXTS: dict[str, str] = {
    "TI4-TURN": "Action-phase turns follow initiative order, skipping players who have passed. A strategic action "
                "uses a strategy card its player holds this round, in the action phase, once a round.",
    "TI4-VP-SOURCE": "Victory points come from objectives and from other sources: the Custodians token (the first to "
                     "take Mecatol Rex, once per game), the Imperial primary while holding Mecatol Rex, Support for the Throne, "
                     "Styx, relics (Shard of the Throne, The Crown of Emphidia), agendas and riders (Political Censure, Holy "
                     "Planet of Ixth, Mutiny, Seed of an Empire, Imperial Rider) and other cards; a point is lost only if it "
                     "was held from that source, and a point one player holds at a time (Custodians, Styx, a relic, "
                     "Political Censure) is not held by two.",
}
