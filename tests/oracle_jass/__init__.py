"""An independent referee for the European (Jass) games, written from the rules reference of the Jass group only
(never from engine code): cards and their per-role ranks and points, legal cards by each game's duties, trick
winners, melds and roem, the trump marriage, and the banked score of a deal. See README.md."""
