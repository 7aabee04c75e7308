"""The web server: tables, rooms, storage and the browser client."""
