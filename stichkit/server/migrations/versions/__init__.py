"""One file per schema change, oldest first: a database made by an older stichkit keeps its games."""
