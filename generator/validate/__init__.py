"""Validate stage: the checks a game's data must pass, each appending located problems."""
