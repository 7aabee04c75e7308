"""Tables: a table's room (its game, seats and journal), the commands it takes, the hub that runs
a process's tables, their bots, lobby, clocks and finished hands."""
