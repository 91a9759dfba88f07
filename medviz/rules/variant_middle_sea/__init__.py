"""*Variant Middle Sea* (Wilf Backhaus): per-unit d6 combat, leaders, spies, special powers, play order."""
