"""The views: tables folded from stored events (the folder), kept up to date (keeper, runner)."""
