"""Adapters between chatmem and agent frameworks (README § Integrations)."""
