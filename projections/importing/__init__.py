"""The import application service: a log read, decided and stored in one transaction."""
