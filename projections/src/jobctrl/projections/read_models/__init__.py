"""One module per read model: its table, its row Struct and its folds (a ``PROJECTION``)."""
