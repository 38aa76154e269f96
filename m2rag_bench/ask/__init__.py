"""``m2rag-bench ask``: one live question answered end to end, shown in the terminal and as a self-contained page.

``citations`` attributes each paragraph of an answer to the retrieved pages it draws on and adds numbered links;
``page`` turns an answer into a safe, offline HTML document and a terminal rendering. Both are pure functions of
the answer and its sample, so they are tested without a network or a model.
"""
