"""Players and their statistics: the registry's checks (`registry`), each match's facts from its verified
export (`evidence` reads it, `facts` adds it up), the figures per player and head to head (`figures`, their
JSON shapes `shapes`), the rating (`rating`), all of it recomputed from the store with a cache per match
(`compute`), and the leaderboard as CSV (`csvfile`). docs/statistics.md."""
