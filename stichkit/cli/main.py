"""The `stich` command (placeholder until the CLI lands)."""


def main() -> int:
    return 0
