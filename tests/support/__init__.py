"""Helpers for tests that talk to a real server over real HTTP and WebSockets."""
