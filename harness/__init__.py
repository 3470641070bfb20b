"""Test and benchmark infrastructure: real Minesweeper clients under Xvfb (not installed with minebot)."""
