"""The exact solver for the Marshal's position (shared/SOLVER_MODEL.md)."""
