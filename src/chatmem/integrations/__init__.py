"""Adapters that plug chatmem into agent frameworks (each needs its framework installed)."""
