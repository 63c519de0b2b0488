"""The application: the build orchestrator, its targets (home, shop, Tabletop, errata), and the component kinds."""
