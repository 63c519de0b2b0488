"""`python -m generator.cli`: the same as `pnp`."""
from .main import main

main()
