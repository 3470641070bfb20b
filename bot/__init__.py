"""minebot: a Minesweeper bot that reads the screen, recognises the board, solves it and clicks.

The core (``bot.board``, ``bot.game``, ``bot.solver``) imports only the standard library and numpy;
screen capture, OpenCV and mouse input live in their own modules and are imported where used.
"""

__version__ = "0.1.0"
