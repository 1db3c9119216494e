"""The 112 double-faced cards of Day & Night, ``DAY//NIGHT`` (spec section 7).

Generated once by pairing the day faces with the night faces shuffled by
``random.Random(20261130)``, then frozen here as data: the deck never changes at import
and every server deals from the same cards. Day faces per colour: 1-9 twice, two each of
+1, Skip, Reverse, Flip; colourless: 4 Wild, 4 Midnight Clock. Night faces per colour:
1-9 twice, two each of +5, Skip Everyone, Reverse, Flip; colourless: 4 Wild, 4 Color Hunt.
"""

DAY_NIGHT_CARDS: tuple[str, ...] = (
    "R1//R8", "R1//Y-skipall", "R2//B6", "R2//B3",
    "R3//Y2", "R3//Y4", "R4//W-hunt", "R4//B-skipall",
    "R5//R-flip", "R5//Y4", "R6//B-reverse", "R6//B8",
    "R7//Y3", "R7//R-reverse", "R8//W", "R8//W-hunt",
    "R9//R+5", "R9//Y2", "R+1//B6", "R+1//W-hunt",
    "R-skip//R1", "R-skip//R3", "R-reverse//Y6", "R-reverse//Y5",
    "R-flip//Y9", "R-flip//Y3", "B1//G6", "B1//Y5",
    "B2//Y-flip", "B2//R6", "B3//Y-flip", "B3//B-flip",
    "B4//R7", "B4//G7", "B5//Y+5", "B5//G7",
    "B6//Y+5", "B6//Y8", "B7//G9", "B7//R3",
    "B8//R8", "B8//G5", "B9//R4", "B9//W",
    "B+1//G-skipall", "B+1//B4", "B-skip//Y9", "B-skip//B+5",
    "B-reverse//G8", "B-reverse//G-flip", "B-flip//Y1", "B-flip//B2",
    "Y1//Y6", "Y1//G6", "Y2//G-reverse", "Y2//B-skipall",
    "Y3//R2", "Y3//R+5", "Y4//Y7", "Y4//Y1",
    "Y5//R-skipall", "Y5//B5", "Y6//B2", "Y6//Y8",
    "Y7//G3", "Y7//R9", "Y8//B5", "Y8//G+5",
    "Y9//G-skipall", "Y9//W", "Y+1//W", "Y+1//Y-reverse",
    "Y-skip//B1", "Y-skip//R5", "Y-reverse//R-reverse", "Y-reverse//G1",
    "Y-flip//B8", "Y-flip//B-flip", "G1//R-flip", "G1//G4",
    "G2//R2", "G2//G1", "G3//Y-skipall", "G3//Y7",
    "G4//W-hunt", "G4//R5", "G5//B4", "G5//B-reverse",
    "G6//G2", "G6//B9", "G7//B3", "G7//G3",
    "G8//R7", "G8//B1", "G9//G-reverse", "G9//R1",
    "G+1//B7", "G+1//R-skipall", "G-skip//G5", "G-skip//G2",
    "G-reverse//G-flip", "G-reverse//G9", "G-flip//G4", "G-flip//G8",
    "W//R6", "W//B7", "W//B+5", "W//B9",
    "W-clock//R4", "W-clock//Y-reverse", "W-clock//R9", "W-clock//G+5",
)
