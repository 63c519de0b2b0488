"""Render stage: ReportLab drawing of cards, boards and tokens from laid-out data."""
