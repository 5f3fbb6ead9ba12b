"""Uchronia: the Forum, Great Buildings, monopolies and the victory point threshold."""
