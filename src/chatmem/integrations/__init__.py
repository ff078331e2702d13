"""Adapters that plug chatmem into agent frameworks, each behind its own extra
(README § Integrations)."""
