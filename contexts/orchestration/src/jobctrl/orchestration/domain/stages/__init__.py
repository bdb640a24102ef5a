"""Per-job stage state: the pure transition table, attempt limits and the JobStages aggregate."""
