"""The engine: a compiled Game, a State per hand, actions, views and matches."""
