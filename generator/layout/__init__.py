"""Lay-out stage: faces with their final text, sheets, boards, booklet content; nothing here writes a file."""
