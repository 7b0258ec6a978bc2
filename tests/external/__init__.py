"""Helper programs for the external-bot tests (tests/test_external.py)."""
