"""The web server, in its parts: ``web`` (the app, its pages and socket protocol), ``tables``
(rooms, seats, the hub and its bots), ``players`` (accounts, ratings, pairing, manners),
``site`` (many processes as one), ``storage`` (the database and its migrations); ``serve``
starts it and ``limits`` bounds what one client may take."""
