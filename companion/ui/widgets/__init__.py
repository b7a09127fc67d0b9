"""Widgets drawn for fingers and for a table: dice, the Village sheet, the turn tracker, charts."""
