"""Color Clash: colour card games in the browser (Color Clash, Coloretto, Rainbow)."""

__version__ = "0.1.0"
