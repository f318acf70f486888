"""The server's storage: schema (models), migrations, engines, and the store the tables write through."""
