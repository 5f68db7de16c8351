"""The rulebook: booklets for people, written from the IR the engine plays (never from spec text).

One phrase table per language (`phrases/<lang>.yaml`) holds every word; the modules here
hold only the shape of a booklet, so a new language is a new table and no new code.
"""
