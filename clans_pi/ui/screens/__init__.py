"""One module per screen: start, names, peek, play, reveal, final board, rules."""
