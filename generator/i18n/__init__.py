"""Texts stage: translation catalogs, localised strings with the numbers they quote, each locale's typography."""
