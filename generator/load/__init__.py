"""Load stage: the project, its games and their data (decks, card sizes, papers, print profiles) as located data."""
