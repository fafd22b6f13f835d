"""Adapters to other frameworks' game interfaces (optional extras)."""
