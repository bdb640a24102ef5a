"""The candidate profile: versions, and the outbox that continues preparation after a change."""
