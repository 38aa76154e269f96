"""Building new M2RAG benchmark data from the web."""
