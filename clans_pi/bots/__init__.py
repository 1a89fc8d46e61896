"""Computer players. They see what a player at the table sees, nothing more (R22)."""
