"""Orchestration's adapters: the SQL tables, the settings store, the spend ledger and the stage tracker."""
