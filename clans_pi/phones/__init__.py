"""Phones as private seat devices: each phone seat gets an unguessable link; the phone's page
shows that seat's clan only while it is held, over a live channel to that seat alone (R22).
Pygame-free: the screen and the headless game drive it alike.

``tokens``   the seats' links (130 random bits each, typeable; compared in constant time)
``server``   the HTTP + WebSocket server (aiohttp) and the page it serves
``devices``  phone seats as seat devices, beside the GPIO seats and the handhelds
``over``     the links of games that are over, so an old tab says "the game is over"
``load``     load and bad input for that server over loopback (tests, benchmarks)
``page/``    the phone's page: plain HTML, CSS and JavaScript, and its font
"""
