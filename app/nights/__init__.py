"""Game nights (issue 33): a series of matches with the same people, any games in any order, with a
running scoreboard. A night is a row (``models.Night``) whose tables are ordinary rooms carrying
its ``night_id``; every match started at one of them is recorded as the night's (``NightMatch``),
and the scoreboard is computed from those matches' result rows (``scoring``), so it can never
disagree with the match records. ``seating`` decides who sits where at the next table (everyone
present, the first player rotating, teams mixed over the night); ``service`` holds the
transactions, ``charts`` the SVG chart and the link-preview PNG."""
