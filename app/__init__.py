"""Asobiba web layer: REST + WebSocket server around the pure engines in ``engines/``."""
