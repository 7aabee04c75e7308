"""The web front: the ASGI app and its pages' files, the socket protocol, and the guards against
hostile clients."""
