"""A site of many processes: the bus between them, table leases and their fences, replicas,
the supervisor, and the exclusive hold on a database."""
