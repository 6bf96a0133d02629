"""Domain rules of the CRM: search, price, book, find, cancel, modify. No HTTP in here."""
