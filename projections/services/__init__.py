"""gamelog: recorded tabletop games as an append-only, event-sourced history."""
