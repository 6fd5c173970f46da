"""What matplotlib's pyplot reads when IPython is imported: no GUI event loops here."""

backend2gui = {}
