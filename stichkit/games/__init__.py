"""One package per game; each is pure rules and imports no bot or interface."""
