"""The people who come back: accounts (names, passwords, sessions). Accounts are optional:
anonymous play, by the browser's own cookie, stays as it is."""
