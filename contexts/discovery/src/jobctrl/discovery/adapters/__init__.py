"""Source adapters: Greenhouse, Lever, Ashby job-board JSON and schema.org JobPosting career pages."""
