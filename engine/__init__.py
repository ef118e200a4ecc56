"""The rules of Fugitive (shared/RULES.md) as a library."""
