"""Names shared by the whole rules package: clans (R3) and terrains (R1)."""

from typing import Final

#: The five clans in their fixed order (R3). A clan's index is its position here.
CLANS: Final = ("red", "blue", "green", "yellow", "black")
CLAN_INDEX: Final = {name: i for i, name in enumerate(CLANS)}
NUM_CLANS: Final = len(CLANS)

#: The four terrains (R1). A terrain's index is its position here.
TERRAINS: Final = ("forest", "mountain", "steppe", "grassland")
TERRAIN_INDEX: Final = {name: i for i, name in enumerate(TERRAINS)}

NUM_TERRITORIES: Final = 60  # R1
NUM_REGIONS: Final = 12  # R1
REGION_SIZE: Final = 5  # R1, R5: one hut of each clan per region
HUTS_PER_CLAN: Final = 12  # R3
NUM_CHIPS: Final = 12  # R4
MIN_PLAYERS: Final = 2  # R6
MAX_PLAYERS: Final = 4  # R6
#: The longest player's name a game, save or record may hold, in code points: the on-screen
#: keyboard's 12 letters (ui.screens.names.MAX_NAME) with room for a computer's name in any
#: language ("Owl (Hard)") and older versions' names. Counted in code points, not letters,
#: so that a letter cannot carry thousands of combining marks either.
MAX_NAME_LENGTH: Final = 40
BIG_GROUP: Final = 7  # R9
