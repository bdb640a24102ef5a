"""Event base, envelope, registry, ids, clock, errors and the job_events store."""
