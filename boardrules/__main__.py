"""`python -m boardrules` is the `boardrules` command."""
from .cli import main

main()
