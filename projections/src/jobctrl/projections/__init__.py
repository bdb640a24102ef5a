"""Read-model tables, folds, the projection runner, rebuild and status."""
