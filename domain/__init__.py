"""Pure domain: game rules, commitments, fair randomness, Merkle maths and the Match aggregate.

Nothing in this package touches a database, the clock or a network.
"""
