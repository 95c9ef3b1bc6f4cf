"""Verification checkpoints: artifact versions, claims with pinned inputs, spatial measurement, the gate."""
