"""The terminal table: one person plays a seat against bots, for a whole match that can be saved and resumed.

`render` turns a seat's `View` into text, `prompt` reads what the player types, `hints` explains the cards,
`save` reads and writes the match file, and `session` runs the loop.
"""
