"""Board-game data in, print-and-play kits, print-shop files and rule booklets out."""
