"""The rule-file language: models, loading with friendly errors, checks, and readable output."""
