"""The `pnp` command line."""
